// Choosing the session a run writes to: a new one, the last one (`--continue`), or a given one
// (`--resume <id>`). Shared by the TUI and headless mode.
import { ConfigError } from '../config/errors';
import { displayPath } from '../config/paths';
import { createSessionLog, type SessionLog } from './log';
import { latestSessionId, loadSession, resolveSessionId } from './load';
import type { Redactor } from '../shared/redact';
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

/**
 * The id `--continue` / `--resume <id|prefix>` refer to, or undefined for a new session.
 * Throws ConfigError (exit 2) when there is nothing to continue or the id does not exist.
 */
export function resolveResumeTarget(options: Pick<OpenHistoryOptions, 'dir' | 'enabled' | 'continueLast' | 'resume'>): string | undefined {
  if (options.resume === undefined && !options.continueLast) return undefined;
  const flag = options.continueLast ? '--continue' : '--resume';
  if (!options.enabled) throw new ConfigError([`${flag}: history is disabled in the config (history.enabled: false)`]);
  if (options.continueLast) {
    const id = latestSessionId(options.dir);
    if (!id) throw new ConfigError([`--continue: no saved session in ${displayPath(options.dir)}`]);
    return id;
  }
  try {
    return resolveSessionId(options.dir, options.resume!);
  } catch (error) {
    throw new ConfigError([`--resume: ${(error as Error).message}`]);
  }
}

export function openHistory(options: OpenHistoryOptions): OpenedHistory {
  const id = resolveResumeTarget(options);
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
