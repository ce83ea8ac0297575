import { isStdioServer } from '../config/schema';
import type { SessionSpec } from './connection';
import { describeError, formatDuration } from './errors';

// The one line a failed connection attempt leaves in the sidebar and the status bar.

export class ConnectTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${formatDuration(ms)}`);
  }
}

export interface FailureFacts {
  spec: SessionSpec;
  /** Why the transport stopped the server, when it did (e.g. a message over the size limit). */
  transportProblem: string | undefined;
  /** Status of the last HTTP response from the server, if any. */
  lastStatus: number | undefined;
  timeoutMs: number;
  /** The server's last stderr line (stdio servers). */
  lastStderr: string | undefined;
}

/** What went wrong, in words a user can act on (not yet redacted). */
export function failureLine(error: unknown, facts: FailureFacts): string {
  const config = facts.spec.kind === 'config' ? facts.spec.config : undefined;
  let line = facts.transportProblem ?? (error instanceof ConnectTimeout ? error.message : describeError(error, facts.timeoutMs));
  if (facts.lastStatus === 401 && !/^HTTP 401/.test(line)) {
    line = config && !isStdioServer(config) && (config.authToken || config.authEnv)
      ? `HTTP 401 (the token was not accepted)`
      : `HTTP 401 (authorization failed: ${line}; set authToken or authEnv for a static token)`;
  }
  const last = facts.lastStderr;
  if (config && isStdioServer(config) && last && !line.includes(last)) line = `${line} (stderr: ${last})`;
  return line;
}
