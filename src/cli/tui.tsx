import type { CliArgs } from './args';
import type { AppConfig } from '../services/config/load';

/** Starts the full-screen UI and resolves with the exit code when the user quits. */
export async function runTui(config: AppConfig, args: CliArgs): Promise<number> {
  // Ink decides at import time whether it runs "in CI" (and then draws nothing until exit);
  // a person at a terminal always gets the live UI, so hide CI variables during the import.
  const savedCi = process.env.CI;
  process.env.CI = 'false';
  const [{ render }, { App }, { AppProviders }, { createAppStore }, { createSession }, { enterFullScreen }, { FrameSink, ScreenWriter }] = await Promise.all([
    import('ink'),
    import('../app/App'),
    import('../app/StoreContext'),
    import('../state/store'),
    import('../app/session'),
    import('../app/terminal'),
    import('../app/screen'),
  ]);
  if (savedCi === undefined) delete process.env.CI;
  else process.env.CI = savedCi;

  const store = createAppStore({ modelName: config.defaultModel, sidebarVisible: config.ui.sidebar && !args.noSidebar });
  const screen = enterFullScreen();
  const writer = new ScreenWriter(process.stdout);
  const sink = new FrameSink(process.stdout, (frame) => writer.render(frame));
  process.stdout.on('resize', () => writer.invalidate());
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  let instance: { unmount: () => void } | undefined;
  const quit = () => {
    instance?.unmount();
    sink.emit('close');
    screen.restore();
    resolveExit(0);
  };
  const controller = createSession({ config, store, quit });
  instance = render(
    <AppProviders store={store} controller={controller}>
      <App />
    </AppProviders>,
    // Debug mode: Ink hands every frame to the sink unthrottled and writes nothing itself; the
    // ScreenWriter owns the terminal and the session batches streaming updates per frame.
    { stdout: sink as unknown as NodeJS.WriteStream, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  return exited;
}
