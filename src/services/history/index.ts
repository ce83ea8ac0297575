import path from 'node:path';
import type { AppConfig } from '../config/load';

export { createSessionLog, ensureSessionDir, newSessionId, sessionFile, type SessionLog, type SessionHeader } from './log';
export { listSessions, loadSession, latestSessionId, resolveSessionId, repairToolTurns, INTERRUPTED_TOOL_RESULT, type LoadedSession, type SessionSummary } from './load';
// The session log's redaction: the config's secrets, known by value, plus credential shapes.
export { collectSecrets } from '../config/secrets';
export { createRedactor, redactDeep, REDACTED, type Redactor } from '../shared/redact';

/** `history.dir` from the config, else `<stateDir>/sessions` ($XDG_STATE_HOME/aish/sessions). */
export function sessionsDir(config: Pick<AppConfig, 'history' | 'paths'>): string {
  return config.history.dir ?? path.join(config.paths.stateDir, 'sessions');
}
export { createResultKeeper, headBytes, writeTextFile, type KeepResult } from './results';
export { openHistory, resolveResumeTarget, type OpenedHistory, type OpenHistoryOptions } from './open';
