import { isStdioServer } from '../config/checks';
import type { SessionSpec } from './connection';
import { describeError, formatDuration } from './errors';
import type { StderrTail } from './stderr';
import { describeExit, type ProcessExit } from './watched-transports';

// The one line a failed connection attempt leaves in the sidebar and the status bar.

export class ConnectTimeout extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${formatDuration(ms)}`);
  }
}

/** What a stdio server left behind: how its process ended, its stderr, what it printed on stdout. */
export interface StdioFacts {
  /** Set once the process has ended (before we closed it). */
  exit: ProcessExit | undefined;
  stderr: StderrTail;
  /** The first line on stdout that was not a JSON-RPC message. */
  strayStdout: string | undefined;
}

export interface FailureFacts {
  spec: SessionSpec;
  /** Why the transport stopped the server, when it did (e.g. a message over the size limit). */
  transportProblem: string | undefined;
  /** Status of the last HTTP response from the server, if any. */
  lastStatus: number | undefined;
  timeoutMs: number;
  /** Stdio servers only. */
  stdio?: StdioFacts;
}

/**
 * `the server process exited with code 3 (stderr: Error: no config file)`: how a stdio server
 * ended, with the stderr line that says why. A process that exited with a failure code gets its
 * last line when nothing reads like an error; one killed by a signal or still running only an
 * error-looking line (a start-up banner would mislead). Then what it printed on stdout, if that
 * was not MCP: the reason a server "never answers" is often a greeting where JSON-RPC belongs.
 */
export function stdioDiagnosis(base: string, facts: StdioFacts): string {
  let line = base;
  const telling = facts.stderr.tellingLine(Boolean(facts.exit && facts.exit.signal === null && facts.exit.code !== 0));
  if (telling && !line.includes(telling)) line = `${line} (stderr: ${telling})`;
  if (facts.strayStdout !== undefined) line = `${line}; it printed ${JSON.stringify(facts.strayStdout)} on stdout, which is not an MCP message`;
  return line;
}

/** A stdio server that went away on its own: its exit, not the SDK's "Connection closed". */
export function processEndLine(facts: StdioFacts): string {
  return stdioDiagnosis(describeExit(facts.exit), facts);
}

/** What went wrong, in words a user can act on (not yet redacted). */
export function failureLine(error: unknown, facts: FailureFacts): string {
  const config = facts.spec.kind === 'config' ? facts.spec.config : undefined;
  const stdio = config && isStdioServer(config) ? facts.stdio : undefined;
  if (!facts.transportProblem && stdio?.exit) return processEndLine(stdio);
  let line = facts.transportProblem ?? (error instanceof ConnectTimeout ? error.message : describeError(error, facts.timeoutMs));
  if (facts.lastStatus === 401 && !/^HTTP 401/.test(line)) {
    line = config && !isStdioServer(config) && (config.authToken || config.authEnv)
      ? `HTTP 401 (the token was not accepted)`
      : `HTTP 401 (authorization failed: ${line}; set authToken or authEnv for a static token)`;
  }
  return stdio ? stdioDiagnosis(line, stdio) : line;
}
