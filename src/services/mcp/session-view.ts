import type { Tool } from '@modelcontextprotocol/client';
import { redact } from './errors';
import type { McpLimits } from './options';
import { StderrTail } from './stderr';
import { acceptTools, listDifference } from './tool-list';
import type { McpEvent, McpToolInfo, ServerSnapshot } from './types';
import type { LateProgress } from './late-progress';

// What one server shows the rest of the app: its snapshot (tools included), the status lines it
// emits and the stderr tail it keeps. Every change makes a new immutable snapshot (subscribers compare by
// identity), and every text leaving here has this server's secrets removed.

const STDERR_EMIT_INTERVAL_MS = 250;

export class SessionView {
  snapshot: ServerSnapshot;
  stderr = new StderrTail();
  /** Lines a stdio server printed on stdout that are not MCP messages (the last ones, cut). */
  private stray: string[] = [];
  private stderrTimer: NodeJS.Timeout | undefined;
  /** Once the session is closed nothing more is emitted. */
  private muted = false;
  /** Told of every new snapshot, muted or not: the session waits on these (see `ServerSession.settled`). */
  private readonly watchers = new Set<(snapshot: ServerSnapshot) => void>();

  constructor(
    private readonly alias: string,
    target: string,
    private readonly emit: (event: McpEvent) => void,
    private readonly secrets: () => string[],
    private readonly limits: McpLimits,
  ) {
    this.snapshot = { alias, target, state: 'disconnected', tools: [], stderr: [] };
  }

  /** Removes this server's known secrets (tokens, header values, env values) from text. */
  redact(text: string): string {
    return redact(text, this.secrets());
  }

  /** Emits again after `mute` (a closed session that connects once more). */
  unmute(): void {
    this.muted = false;
  }

  mute(): void {
    this.muted = true;
    clearTimeout(this.stderrTimer);
  }

  update(change: Partial<ServerSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const watcher of [...this.watchers]) watcher(this.snapshot);
    if (!this.muted) this.emit({ type: 'server', snapshot: this.snapshot });
  }

  /** Calls `watcher` with every new snapshot until the returned function is called. */
  watch(watcher: (snapshot: ServerSnapshot) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /** Resolves with the first snapshot for which `waiting` is false, or with the current one after `timeoutMs`. */
  until(waiting: (snapshot: ServerSnapshot) => boolean, timeoutMs: number): Promise<ServerSnapshot> {
    if (!waiting(this.snapshot)) return Promise.resolve(this.snapshot);
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        unwatch();
        resolve(this.snapshot);
      };
      const timer = setTimeout(finish, timeoutMs);
      const unwatch = this.watch((snapshot) => {
        if (!waiting(snapshot)) finish();
      });
    });
  }

  status(level: 'info' | 'warn' | 'error', message: string): void {
    if (!this.muted) this.emit({ type: 'status', alias: this.alias, level, message: this.redact(message) });
  }

  /** Shows the server in error with `line`, in the sidebar and once in the status bar. */
  showError(line: string, change: Partial<ServerSnapshot> = {}): void {
    this.update({ ...change, state: 'error', error: this.redact(line) });
    this.status('error', `mcp ${this.alias}: ${this.snapshot.error}`);
  }

  /** The server's tools as the model may see them (oversized or malformed ones are left out, with a warning). */
  acceptTools(tools: Tool[]): McpToolInfo[] {
    return acceptTools(tools, { alias: this.alias, limits: this.limits, secrets: this.secrets(), warn: (message) => this.status('warn', message) });
  }

  /** A re-listed tool list; some servers announce a change right after connecting, so only a real change is news. */
  replaceTools(tools: Tool[]): void {
    const previous = this.snapshot.tools;
    const accepted = this.acceptTools(tools);
    if (JSON.stringify(accepted) === JSON.stringify(previous)) return;
    this.update({ tools: accepted });
    this.status('info', `mcp ${this.alias}: tool list changed (${accepted.length} tools${listDifference(previous, accepted)})`);
  }

  /**
   * What a connection tells about itself besides its state, while `current()` (its attempt is the
   * latest): tools dropped from its list before parsing, lines on stdout that are not MCP.
   */
  connectionNotes(current: () => boolean): { onToolDropped: (note: string) => void; onStrayStdout: (lines: string[]) => void; onLateProgress: (late: LateProgress) => void } {
    return {
      // The seed's async operations: a result pushed as progress after the call returned.
      onLateProgress: (late) => {
        if (!current() || this.muted) return;
        this.emit({ type: 'late-progress', alias: this.alias, tool: late.tool, progress: late.progress, ...(late.total !== undefined ? { total: late.total } : {}), message: this.redact(late.message ?? '') });
      },
      onToolDropped: (note) => current() && this.status('warn', `mcp ${this.alias}: ${note}`),
      onStrayStdout: (lines) => {
        if (!current()) return;
        this.stray = lines;
        this.scheduleStderrUpdate();
      },
    };
  }

  /** A fresh stderr tail for a new process. */
  resetStderr(): StderrTail {
    this.stderr = new StderrTail();
    this.stray = [];
    // Taken out with the next update (the new process has printed nothing yet).
    if (this.snapshot.strayStdout) this.snapshot = { ...this.snapshot, strayStdout: undefined };
    return this.stderr;
  }

  /** The kept stray stdout lines, with this server's secrets removed. */
  strayLines(): string[] {
    const secrets = this.secrets();
    return secrets.length === 0 ? this.stray : this.stray.map((line) => redact(line, secrets));
  }

  /** The kept stderr lines, with this server's secrets removed (a server may print its own token). */
  stderrLines(): string[] {
    const secrets = this.secrets();
    return secrets.length === 0 ? this.stderr.snapshot() : this.stderr.snapshot().map((line) => redact(line, secrets));
  }

  /** Stderr arrives in bursts; the sidebar gets at most one update per interval. */
  scheduleStderrUpdate(): void {
    if (this.stderrTimer) return;
    this.stderrTimer = setTimeout(() => {
      this.stderrTimer = undefined;
      this.update({ stderr: this.stderrLines(), ...(this.stray.length > 0 ? { strayStdout: this.strayLines() } : {}) });
    }, STDERR_EMIT_INTERVAL_MS);
    this.stderrTimer.unref();
  }
}
