// Choosing the session a run writes to: a new one, the last one (`--continue`), or a given one
// (`--resume <id>`). Shared by the TUI and headless mode.
import { ConfigError } from '../config/errors';
import { createSessionLog, type SessionLog } from './log';
import { latestSessionId, loadSession, resolveSessionId } from './load';
import type { Redactor } from './redact';
import type { Message } from '../conversation/types';

export interface OpenHistoryOptions {
  dir: string;
  enabled: boolean;
  continueLast?: boolean;
  resume?: string;
  redact: Redactor;
  cwd?: string;
  model?: string;
  onError?: (message: string) => void;
}

export interface OpenedHistory {
  /** Undefined when history is disabled. */
  log: SessionLog | undefined;
  /** The resumed messages (empty for a new session). */
  messages: Message[];
  warnings: string[];
  resumedId?: string;
}

/** Throws ConfigError (exit 2) when there is nothing to continue or the id does not exist. */
export function openHistory(options: OpenHistoryOptions): OpenedHistory {
  let id: string | undefined;
  if (options.resume !== undefined || options.continueLast) {
    if (!options.enabled) throw new ConfigError([`${options.continueLast ? '--continue' : '--resume'}: history is disabled in the config (history.enabled: false)`]);
    if (options.continueLast) {
      id = latestSessionId(options.dir);
      if (!id) throw new ConfigError([`--continue: no saved session in ${options.dir}`]);
    } else {
      try {
        id = resolveSessionId(options.dir, options.resume!);
      } catch (error) {
        throw new ConfigError([`--resume: ${(error as Error).message}`]);
      }
    }
  }
  const loaded = id ? loadSession(options.dir, id) : undefined;
  const log = options.enabled
    ? createSessionLog({
        dir: options.dir,
        ...(id ? { id } : {}),
        redact: options.redact,
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.onError ? { onError: options.onError } : {}),
      })
    : undefined;
  return { log, messages: loaded?.messages ?? [], warnings: loaded?.warnings ?? [], ...(id ? { resumedId: id } : {}) };
}
