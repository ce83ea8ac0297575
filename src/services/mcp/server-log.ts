import type { Client, LoggingMessageNotification } from '@modelcontextprotocol/client';
import type { ServerLogEntry, ServerLogLevel } from './types';

// A server's log (MCP "logging": `logging/setLevel` and `notifications/message`): the last
// messages, each cut to a bounded length, kept for the server's details view; `error` and worse
// also as a status line, at most one per interval per server so a noisy server cannot flood the
// transcript. Text is kept raw here and sanitized where it is drawn.

export const LOG_LEVELS: readonly ServerLogLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
export const DEFAULT_LOG_LEVEL: ServerLogLevel = 'warning';
/** Messages kept per server. */
export const LOG_ENTRIES = 200;
/** Characters kept of one message. */
export const LOG_ENTRY_CHARS = 2_000;
/** At most one status line per server in this interval; the ones left out are counted in the next. */
export const LOG_STATUS_INTERVAL_MS = 10_000;

const severity = (level: ServerLogLevel) => LOG_LEVELS.indexOf(level);

function textOf(data: unknown): string {
  let text: string;
  if (typeof data === 'string') text = data;
  else {
    try {
      text = JSON.stringify(data) ?? String(data);
    } catch {
      text = String(data);
    }
  }
  return text.length > LOG_ENTRY_CHARS ? `${text.slice(0, LOG_ENTRY_CHARS - 1)}…` : text;
}

export interface ServerLogSink {
  /** The kept entries changed (a new array each time). */
  entries: (entries: ServerLogEntry[]) => void;
  status: (level: 'error', message: string) => void;
  redact: (text: string) => string;
  now?: () => number;
}

export class ServerLog {
  private list: ServerLogEntry[] = [];
  private lastStatusAt = -Infinity;
  private suppressed = 0;

  constructor(
    private readonly alias: string,
    private readonly sink: ServerLogSink,
  ) {}

  get entries(): readonly ServerLogEntry[] {
    return this.list;
  }

  add(params: LoggingMessageNotification['params']): void {
    const now = this.sink.now?.() ?? Date.now();
    const level = LOG_LEVELS.includes(params.level) ? params.level : 'info';
    const text = this.sink.redact(textOf(params.data));
    const entry: ServerLogEntry = { at: now, level, ...(typeof params.logger === 'string' ? { logger: this.sink.redact(params.logger) } : {}), text };
    this.list = [...this.list.slice(-(LOG_ENTRIES - 1)), entry];
    this.sink.entries(this.list);
    if (severity(level) < severity('error')) return;
    if (now - this.lastStatusAt < LOG_STATUS_INTERVAL_MS) {
      this.suppressed += 1;
      return;
    }
    const more = this.suppressed > 0 ? ` (${this.suppressed} more since the last; all in the server's details)` : '';
    this.suppressed = 0;
    this.lastStatusAt = now;
    const firstLine = text.split('\n', 1)[0] ?? '';
    this.sink.status('error', `mcp ${this.alias} log ${level}${entry.logger ? ` [${entry.logger}]` : ''}: ${firstLine.slice(0, 200)}${more}`);
  }
}

/** Collects the server's log messages into `log` (installed before connecting: a server may log during initialize). */
export function installLogging(client: Client, log: ServerLog): void {
  client.setNotificationHandler('notifications/message', (notification) => log.add(notification.params));
}

/**
 * Asks a server that declares `logging` to send messages of `level` and worse. Servers that do not
 * declare it are not asked (the spec makes the request theirs to support). Resolves with a
 * problem to report, or undefined.
 */
/**
 * How long `logging/setLevel` may wait for its answer. A request awaiting an answer marks the server
 * busy, and a busy server is not pinged: a server that stops right after connecting must not hide
 * from the liveness check behind this request for the SDK's default minute.
 */
const SET_LEVEL_TIMEOUT_MS = 3_000;

export async function applyLogLevel(client: Client, level: ServerLogLevel): Promise<string | undefined> {
  if (!client.getServerCapabilities()?.logging) return undefined;
  try {
    await client.setLoggingLevel(level, { timeout: SET_LEVEL_TIMEOUT_MS });
    return undefined;
  } catch (error) {
    return `logging/setLevel ${level} failed: ${(error as Error).message}`;
  }
}
