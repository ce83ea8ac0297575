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
  private replyListeners: Array<(reply: string) => void> = [];

  constructor(
    private readonly source: InputSource,
    options: KeyInputOptions = {},
  ) {
    // Read the clock through a closure so a faked clock (tests) is honoured.
    this.now = options.now ?? (() => Date.now());
    this.escapeDelayMs = options.escapeDelayMs ?? 40;
  }

  start(): void {
    if (this.attached) return;
    this.attached = true;
    if (this.source.isTTY) this.source.setRawMode?.(true);
    this.source.setEncoding?.('utf8');
    this.source.on('data', this.onData);
    this.source.resume?.();
  }

  stop(): void {
    if (!this.attached) return;
    this.attached = false;
    clearTimeout(this.escapeTimer);
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
    const result = this.tokenizer.push(chunk, this.now());
    this.droppedReplies += result.dropped.length;
    for (const reply of result.dropped) for (const listener of this.replyListeners) listener(reply);
    for (const event of result.events) this.dispatch(event);
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
