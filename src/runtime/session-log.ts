// The session file a run writes, for the TUI and `-p` alike: which session it is (new, `--continue`,
// `--resume <id>`, and in the TUI `:clear` / `:resume`), every message appended as it happens with
// secrets redacted, and messages taken back marked withdrawn. The services/history module knows
// the file format; this piece owns which file is current and when a withdrawal is written.
import type { AppConfig } from '../services/config/load';
import type { Message } from '../services/conversation/types';
import { openHistory, resolveResumeTarget, sessionsDir, type OpenedHistory, type Redactor } from '../services/history/index';

export interface ResumeChoice {
  continueLast?: boolean;
  resume?: string;
}

export interface SessionLogOptions {
  config: Pick<AppConfig, 'history' | 'paths'>;
  redact: Redactor;
  cwd: string;
  /** The model named in a new session's header: the one in use when the session opens. */
  model: () => string;
  /** Write errors, reported once; they never stop the conversation. */
  onError: (message: string) => void;
}

export interface SessionLogger {
  /** Where the sessions are (`history.dir`, else `<stateDir>/sessions`). */
  readonly dir: string;
  /** The session being written: its resumed messages, warnings and log (none when history is off). */
  current(): OpenedHistory;
  id(): string | undefined;
  /** Opens a session without switching to it; throws (ConfigError) when the id does not exist. */
  open(choice: ResumeChoice): OpenedHistory;
  /** Makes `opened` the current session: the current file is closed, pending withdrawals are dropped. */
  switchTo(opened: OpenedHistory): void;
  append(message: Message): void;
  /**
   * Marks a message withdrawn when the next message is written, not now: until then the file
   * still says the question is unanswered, so quitting (or a signal) before sending anything
   * loses nothing, and the next resume puts it back in the input again.
   */
  withdrawLater(ids: readonly string[]): void;
  /** Writes at once that the conversation went back to before message `to` (`:rewind`, `:retry`). */
  rewind(to: string): void;
  /** Forces what was appended onto the disk (end of each turn). */
  flush(): void;
  close(): void;
}

/**
 * The session id `--continue` / `--resume <id|prefix>` mean, or undefined for a new session; throws
 * ConfigError (exit 2) when there is none. The TUI asks before its screen switches, so a wrong id
 * is a plain one-line error.
 */
export function resolveResume(config: Pick<AppConfig, 'history' | 'paths'>, choice: ResumeChoice): string | undefined {
  return resolveResumeTarget({ dir: sessionsDir(config), enabled: config.history.enabled, ...choice });
}

/** Opens the first session (`choice`) at once; throws like `open`. */
export function createSessionLogger(options: SessionLogOptions, choice: ResumeChoice): SessionLogger {
  const dir = sessionsDir(options.config);
  const open = (resume: ResumeChoice): OpenedHistory =>
    openHistory({
      dir,
      enabled: options.config.history.enabled,
      ...(resume.continueLast !== undefined ? { continueLast: resume.continueLast } : {}),
      ...(resume.resume !== undefined ? { resume: resume.resume } : {}),
      redact: options.redact,
      cwd: options.cwd,
      model: options.model(),
      onError: options.onError,
    });
  let current = open(choice);
  let pendingWithdrawals: string[] = [];

  return {
    dir,
    current: () => current,
    id: () => current.log?.id,
    open,
    switchTo(opened) {
      current.log?.close();
      current = opened;
      pendingWithdrawals = [];
    },
    append(message) {
      for (const id of pendingWithdrawals.splice(0)) current.log?.withdraw(id);
      current.log?.append(message);
    },
    withdrawLater(ids) {
      pendingWithdrawals.push(...ids);
    },
    rewind(to) {
      for (const id of pendingWithdrawals.splice(0)) current.log?.withdraw(id);
      current.log?.rewind(to);
    },
    flush: () => current.log?.flush(),
    close: () => current.log?.close(),
  };
}
