import { KeyTokenizer } from './tokenizer';
import type { KeyEvent } from './keys';

/**
 * The one reader of the terminal's input. It owns stdin (raw mode, UTF-8), runs every read
 * through the tokenizer and hands each key to the handlers in priority order until one takes it.
 * Ink's own input handling is not used, so no component can see a terminal reply or a
 * half-parsed paste.
 */

export type KeyHandler = (key: KeyEvent) => boolean | void;

/** Who gets a key first: higher numbers first. */
export const KeyPriority = {
  /** Ctrl+C, Ctrl+D, Ctrl+L: always reachable. */
  core: 100,
  /** Approval and command frames: modal while shown. */
  frame: 50,
  /** One-line prompts and overlays (connect prompt, tool details). */
  overlay: 40,
  /** Focus movement, sidebar toggle, transcript scrolling. */
  navigation: 20,
  /** The focused panel (input editor, sidebar list, chat). */
  panel: 10,
} as const;

export interface InputSource {
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off?(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  removeListener?(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  setRawMode?(mode: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  resume?(): unknown;
  pause?(): unknown;
  isTTY?: boolean;
}

export interface KeyInputOptions {
  now?: () => number;
  /** How often the stall watch notes that the app is free to read (ms; 0: no watch). */
  stallBeatMs?: number;
  /** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
  escapeDelayMs?: number;
}

interface Registration {
  handler: KeyHandler;
  priority: number;
  order: number;
}

export class KeyInput {
  private readonly tokenizer = new KeyTokenizer();
  private registrations: Registration[] = [];
  private nextOrder = 0;
  private escapeTimer: NodeJS.Timeout | undefined;
  private attached = false;
  private readonly now: () => number;
  private readonly escapeDelayMs: number;
  /** Dropped terminal replies (count), for diagnostics and tests. */
  droppedReplies = 0;
  // The stall watch: a beat while the app is free to read, so a read that comes much later than
  // the last beat is known to have waited (the app was busy) since about then. Keys typed before a
  // frame appeared and read only after it would otherwise look typed after it.
  private readonly stallBeatMs: number;
  private beatTimer: NodeJS.Timeout | undefined;
  private lastBeat: number | undefined;
  private lastRead: number | undefined;
  private replyListeners: Array<(reply: string) => void> = [];

  constructor(
    private readonly source: InputSource,
    options: KeyInputOptions = {},
  ) {
    // Read the clock through a closure so a faked clock (tests) is honoured.
    this.now = options.now ?? (() => Date.now());
    this.escapeDelayMs = options.escapeDelayMs ?? 40;
    this.stallBeatMs = options.stallBeatMs ?? 50;
  }

  /** Starts the stall watch (start() does; tests with a faked clock call `beat` themselves). */
  private watchStalls(): void {
    if (this.stallBeatMs <= 0 || this.beatTimer) return;
    this.beat();
    this.beatTimer = setInterval(() => this.beat(), this.stallBeatMs);
    this.beatTimer.unref?.();
  }

  /** The app is free to read now. */
  beat(): void {
    this.lastBeat = this.now();
  }

  /**
   * When a read at `at` came late (more than two beats after the last one), the earliest its bytes
   * can have arrived: the last beat or the last read, whichever is later. Undefined: it came at once.
   */
  private stalledSince(at: number): number | undefined {
    if (this.lastBeat === undefined) return undefined;
    const waitedFrom = Math.max(this.lastBeat, this.lastRead ?? -Infinity);
    return at - this.lastBeat > this.stallBeatMs * 2 ? waitedFrom : undefined;
  }

  start(): void {
    if (this.attached) return;
    this.attached = true;
    if (this.source.isTTY) this.source.setRawMode?.(true);
    this.source.setEncoding?.('utf8');
    this.source.on('data', this.onData);
    this.source.resume?.();
    this.watchStalls();
  }

  stop(): void {
    if (!this.attached) return;
    this.attached = false;
    clearTimeout(this.escapeTimer);
    clearInterval(this.beatTimer);
    this.beatTimer = undefined;
    if (this.source.off) this.source.off('data', this.onData);
    else this.source.removeListener?.('data', this.onData);
    this.source.pause?.();
  }

  /** Adds a handler; returns its removal. Among equal priorities the newest goes first. */
  subscribe(handler: KeyHandler, priority: number = KeyPriority.panel): () => void {
    const registration: Registration = { handler, priority, order: this.nextOrder++ };
    this.registrations = [...this.registrations, registration].sort((a, b) => b.priority - a.priority || b.order - a.order);
    return () => {
      this.registrations = this.registrations.filter((entry) => entry !== registration);
    };
  }

  /**
   * Hears the terminal's replies that never become keys: focus reports (`ESC[I`, `ESC[O`), colour
   * answers (`ESC]11;rgb:…`). Returns the unsubscribe.
   */
  onReply(listener: (reply: string) => void): () => void {
    this.replyListeners = [...this.replyListeners, listener];
    return () => {
      this.replyListeners = this.replyListeners.filter((entry) => entry !== listener);
    };
  }

  /** Feeds input as if read from the terminal (tests, and the source listener). */
  feed(chunk: string): void {
    clearTimeout(this.escapeTimer);
    const at = this.now();
    const since = this.stalledSince(at);
    this.lastRead = at;
    const result = this.tokenizer.push(chunk, at);
    this.droppedReplies += result.dropped.length;
    for (const reply of result.dropped) for (const listener of this.replyListeners) listener(reply);
    for (const event of result.events) this.dispatch(since === undefined ? event : { ...event, since });
    if (this.tokenizer.hasPending) {
      this.escapeTimer = setTimeout(() => {
        for (const event of this.tokenizer.flush(this.now())) this.dispatch(event);
      }, this.escapeDelayMs);
    }
  }

  dispatch(event: KeyEvent): void {
    for (const registration of this.registrations) {
      if (registration.handler(event) === true) return;
    }
  }

  private readonly onData = (chunk: string | Buffer) => {
    this.feed(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
  };
}
