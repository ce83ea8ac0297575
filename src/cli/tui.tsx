import type { CliArgs } from './args';
import type { AppConfig } from '../services/config/load';
import type { ImportNotice } from '../services/config/mcp-import';
import { rememberFirstFrame } from '../boot/remembered-screen';
import { APP_SCREEN_MODES } from '../terminal/screen-modes';
import { collectAfterLoad, compactWhenServersSettle } from './collect-after-load';
import { routeProcessWarnings } from './process-warnings';

/** The least time between two scrolls of the transcript: ten a second at most. */
const SCROLL_INTERVAL_MS = 100;

/** Terminals known to ignore OSC 52: `:copy` writes a file there. */
const CLIPBOARDLESS_TERMS = new Set(['linux', 'dumb']);

/** Starts the full-screen UI and resolves with the exit code when the user quits. */
export async function runTui(config: AppConfig, args: CliArgs, notices: ReadonlyArray<ImportNotice> = []): Promise<number> {
  // Ink decides at import time whether it runs "in CI" (and then draws nothing until exit), and
  // its colour detection turns colours off when a CI variable exists at all; a person at a
  // terminal always gets the live, coloured UI, so the CI variables are hidden during the import.
  const ciNames = ['CI', 'CONTINUOUS_INTEGRATION'] as const;
  const savedCi = ciNames.map((name) => process.env[name]);
  for (const name of ciNames) delete process.env[name];
  const [{ render }, { installFastInkOutput }, { TranscriptLayer }, { App }, { AppProviders }, { createAppStore }, { createSession }, { enterFullScreen }, { FrameSink, ScreenWriter }, { KeyInput }, { InputHistory }, { META_COMMANDS }, { listSessions, sessionsDir }, { formatKeymap }, { editExternally: editInEditor }] =
    await Promise.all([
      import('ink'),
      import('../terminal/inkOutput'),
      import('../transcript/layer'),
      import('../ui/App'),
      import('../ui/StoreContext'),
      import('../state/store'),
      import('../runtime/session'),
      import('../terminal/fullScreen'),
      import('../terminal/screen'),
      import('../terminal/keyboard/keyInput'),
      import('../runtime/inputHistory'),
      import('../runtime/commands'),
      import('../services/history/index'),
      import('../ui/keys/keymap'),
      import('../terminal/external-editor'),
    ]);
  ciNames.forEach((name, index) => {
    const value = savedCi[index];
    if (value !== undefined) process.env[name] = value;
  });
  // Frames are composed row by row from the last frame's rows (see terminal/inkOutput.ts).
  installFastInkOutput();

  const { initialBackground, startComforts } = await import('./comforts');
  const store = createAppStore({ modelName: config.defaultModel, sidebarVisible: config.ui.sidebar && !args.noSidebar, background: initialBackground(config, process.env) });
  const history = InputHistory.forStateDir(config.paths.stateDir).load();
  if (history.lastError) store.getState().addStatus('warn', history.lastError);
  for (const notice of notices) store.getState().addStatus(notice.level, notice.text);
  const restoreWarnings = routeProcessWarnings((text) => store.getState().addStatus('warn', `node: ${text}`));
  // Bracketed paste: the terminal marks pastes, so pasted newlines never send and a pasted `:` or
  // `!` stays text.
  let saveOnExit: (() => Promise<void>) | undefined;
  const screen = enterFullScreen({ ...APP_SCREEN_MODES, onFatal: () => saveOnExit?.() });
  // Lines that stream in faster than ten a second scroll together (see ScreenWriterOptions).
  // The first frame is remembered for the next start's early paint (src/boot/remembered-screen.ts),
  // unless something in it will not be there next time (a warning).
  const typical = notices.every((notice) => notice.level === 'info') && !history.lastError;
  const onFirstPaint = (frame: string) => void setImmediate(() => rememberFirstFrame(frame, typical));
  const writer = new ScreenWriter(process.stdout, { scrollIntervalMs: SCROLL_INTERVAL_MS, onFirstPaint });
  let lastFrame = '';
  const sink = new FrameSink(process.stdout, (frame) => {
    lastFrame = frame;
    writer.render(frame);
  });
  // The transcript is drawn beside Ink, over the blank box the layout keeps for it.
  const transcriptLayer = new TranscriptLayer(store, () => writer.repaintRegion());
  writer.setRegion(transcriptLayer);
  const onResize = () => writer.invalidate();
  process.stdout.on('resize', onResize);
  const redraw = () => {
    writer.invalidate();
    writer.render(lastFrame);
  };
  // The one reader of the keyboard (see src/terminal/keyboard/keyInput.ts); Ink's own input is unused.
  const keys = new KeyInput(process.stdin);
  keys.start();
  // Focus reports, notifications while in the background, the theme from the terminal's background.
  const stopComforts = startComforts({ config, store, keys, write: (sequence) => writer.passthrough(sequence), env: process.env });

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  let instance: { unmount: () => void } | undefined;
  let quitting = false;
  const quit = () => {
    if (quitting) return;
    quitting = true;
    stopComforts();
    keys.stop();
    instance?.unmount();
    transcriptLayer.dispose();
    writer.dispose();
    sink.emit('close');
    process.stdout.off('resize', onResize);
    screen.restore();
    restoreWarnings();
    // On the normal screen, after the restore: the way back stays in the scrollback.
    const hint = controller.resumeHint();
    if (hint) process.stdout.write(`${hint}\n`);
    process.stdin.unref?.();
    resolveExit(0);
  };
  // `:copy`: OSC 52 through the writer, the one thing that writes to the terminal; a console
  // without clipboard support gets a file instead.
  const clipboard = (sequence: string) => (CLIPBOARDLESS_TERMS.has(process.env.TERM ?? '') ? false : writer.passthrough(sequence));
  const controller = createSession({ config, store, quit, args, keyHelp: formatKeymap, clipboard, onHistoryLoaded: (messages) => collectAfterLoad(messages) });
  // Ctrl+G: the terminal is the editor's while it runs; then everything is drawn again.
  const handover = {
    suspend() {
      keys.stop();
      writer.suspend();
      screen.suspend();
    },
    resume() {
      screen.resume();
      keys.start();
      writer.resume();
      writer.render(lastFrame);
    },
  };
  const editExternally = (text: string) => editInEditor(text, { env: process.env, handover });
  // `@`: the files here and the connected servers' resources (the session holds their lists).
  const completionSources = [controller.mentionCompletion];
  // On SIGTERM / SIGHUP the running answer is cancelled, so what has arrived is saved as a cancelled
  // answer, and the session file is closed.
  saveOnExit = () => controller.close();
  const sessionIds = () => listSessions(sessionsDir(config)).map((entry) => entry.id);
  const env = { keys, history, redraw, modelNames: Object.keys(config.models), commands: META_COMMANDS, sessionIds, transcriptLayer, editExternally, completionSources };
  instance = render(
    <AppProviders store={store} controller={controller} env={env}>
      <App />
    </AppProviders>,
    // Debug mode: Ink hands every frame to the sink unthrottled and writes nothing itself; the
    // ScreenWriter owns the terminal and the session batches streaming updates per frame.
    { stdout: sink as unknown as NodeJS.WriteStream, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  // A long session resumed from the command line: its loading's garbage is collected now, not in
  // the first answer (`:resume` later goes through onHistoryLoaded).
  collectAfterLoad(store.getState().messages.length);
  // The servers' start-up leaves the old generation larger than what it holds: given back once
  // they have all settled.
  const stopCompacting = compactWhenServersSettle(store);
  void exited.then(stopCompacting);
  return exited;
}
