import { EventEmitter } from 'node:events';
import { render } from 'ink';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, vi } from 'vitest';
import { App } from '../../src/ui/App';
import type { AppController, SubmitOptions } from '../../src/runtime/controller';
import { KeyInput } from '../../src/terminal/keyboard/keyInput';
import { InputHistory } from '../../src/runtime/inputHistory';
import { AppProviders, type UiEnv } from '../../src/ui/StoreContext';
import { createAppStore, type AppStore } from '../../src/state/store';

/** A terminal-sized stdout that keeps the last frame Ink drew (Ink runs in debug mode: whole frames). */
class FakeStdout extends EventEmitter {
  readonly isTTY = true;
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string) => {
    this.frames.push(frame);
    return true;
  };
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

class FakeStdin extends EventEmitter {
  readonly isTTY = true;
  setRawMode() {}
  setEncoding() {}
  ref() {}
  unref() {}
  resume() {}
  pause() {}
  read() {
    return null;
  }
}

export interface TestController extends AppController {
  submitted: Array<{ text: string; options?: SubmitOptions }>;
  cancelled: number;
  quits: number;
  /** What cancel() answers (something is running). */
  running: boolean;
  reconnectServer: (alias: string) => void;
  disconnectServer: (alias: string) => void;
  connectServer: (url: string, alias?: string) => void;
  actions: string[];
}

export function testController(): TestController {
  const controller: TestController = {
    submitted: [],
    cancelled: 0,
    quits: 0,
    running: false,
    actions: [],
    submit(text, options) {
      controller.submitted.push(options ? { text, options } : { text });
    },
    cancel() {
      if (!controller.running) return false;
      controller.cancelled++;
      controller.running = false;
      return true;
    },
    quit() {
      controller.quits++;
    },
    reconnectServer(alias) {
      controller.actions.push(`reconnect ${alias}`);
    },
    disconnectServer(alias) {
      controller.actions.push(`disconnect ${alias}`);
    },
    connectServer(url, alias) {
      controller.actions.push(`connect ${url}${alias ? ` ${alias}` : ''}`);
    },
    toggleTool(alias, tool) {
      controller.actions.push(`toggle ${alias}${tool !== undefined ? `__${tool}` : ''}`);
    },
  };
  return controller;
}

export interface Harness {
  store: AppStore;
  controller: TestController;
  keys: KeyInput;
  history: InputHistory;
  redraws: number;
  stdout: FakeStdout;
  /** The last frame, ANSI codes removed. */
  screen(): string;
  /** The last frame with its escape codes. */
  rawScreen(): string;
  /** Types raw terminal input (one read) and lets React render. */
  type(data: string): Promise<void>;
  settle(): Promise<void>;
  unmount(): void;
}

export interface HarnessOptions {
  columns?: number;
  rows?: number;
  store?: AppStore;
  controller?: TestController;
  history?: InputHistory;
  env?: Partial<UiEnv>;
  children?: ReactNode;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07/g;
export const stripAnsi = (text: string) => text.replace(ANSI, '');

/** Lets queued renders run, with real or fake timers. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(0);
    else await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Renders the whole app (or `children`) at a terminal size, with keys fed straight to the key reader. */
export function renderApp(options: HarnessOptions = {}): Harness {
  const stdout = new FakeStdout(options.columns ?? 100, options.rows ?? 30);
  const store = options.store ?? createAppStore({ modelName: 'local' });
  const controller = options.controller ?? testController();
  const keys = new KeyInput({ on: () => undefined });
  const history = options.history ?? new InputHistory(undefined);
  const harness: Harness = {
    store,
    controller,
    keys,
    history,
    redraws: 0,
    stdout,
    screen: () => stripAnsi(stdout.frames[stdout.frames.length - 1] ?? ''),
    rawScreen: () => stdout.frames[stdout.frames.length - 1] ?? '',
    async type(data) {
      keys.feed(data);
      await settle();
    },
    settle,
    unmount: () => instance.unmount(),
  };
  const env: Partial<UiEnv> = {
    keys,
    history,
    redraw: () => {
      harness.redraws++;
    },
    modelNames: ['local', 'ollama', 'cloud'],
    ...options.env,
  };
  const instance = render(
    <AppProviders store={store} controller={controller} env={env}>
      {options.children ?? <App />}
    </AppProviders>,
    { stdout: stdout as unknown as NodeJS.WriteStream, stdin: new FakeStdin() as unknown as NodeJS.ReadStream, debug: true, exitOnCtrlC: false, patchConsole: false },
  );
  return harness;
}

/**
 * The hooks most component test files share: with `fakeTimers`, fake timers around each test; the
 * app rendered by `render` is unmounted after each test (and real timers restored).
 */
export function useRenderedApp(options: { fakeTimers?: boolean } = {}): { render(harness?: HarnessOptions): Harness } {
  let current: Harness | undefined;
  if (options.fakeTimers) {
    beforeEach(() => {
      vi.useFakeTimers();
    });
  }
  afterEach(() => {
    current?.unmount();
    current = undefined;
    vi.useRealTimers();
  });
  return { render: (harness) => (current = renderApp(harness)) };
}
