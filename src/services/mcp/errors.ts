import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, UnauthorizedError } from '@modelcontextprotocol/client';
import { htmlText } from '../broker/errors';
import { formatDuration } from '../shared/duration';
import { redact as redactText } from '../shared/redact';

// Every failure reaches the user as one short line: `spawn npx ENOENT`, `HTTP 401`, `timed out
// after 10s`. Secrets we know about are removed from any text before it leaves this module.

export { formatDuration };

/** Replaces every known secret in `text`, and whatever else looks like a credential, with the one marker. */
export function redact(text: string, secrets: Iterable<string>): string {
  return redactText(text, secrets, { shapes: true });
}

/** A message that quotes an HTML error page (a proxy's 401) keeps the page's title, not its markup. */
function withoutHtml(text: string): string {
  const start = text.search(/<(!doctype html|html|head|body)\b/i);
  if (start === -1) return text;
  return `${text.slice(0, start)}${htmlText(text.slice(start)) ?? ''}`;
}

function firstLine(raw: string, max = 300): string {
  const text = withoutHtml(raw);
  const line = text.split(/\r?\n/).find((candidate) => candidate.trim().length > 0)?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

/** The text of an HTTP error body, when it says more than the status. */
function bodyHint(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const trimmed = text.trim();
  try {
    const parsed = JSON.parse(trimmed) as unknown;
    if (parsed && typeof parsed === 'object') {
      const record = parsed as Record<string, unknown>;
      const inner = record.error;
      if (typeof inner === 'string') return firstLine(inner, 160);
      if (inner && typeof inner === 'object' && typeof (inner as Record<string, unknown>).message === 'string') {
        return firstLine((inner as { message: string }).message, 160);
      }
      if (typeof record.message === 'string') return firstLine(record.message, 160);
    }
  } catch {
    // not JSON: fall through to the raw first line
  }
  if (/^<!doctype|^<html/i.test(trimmed)) return '';
  return firstLine(trimmed, 160);
}

export function httpStatusOf(error: unknown): number | undefined {
  if (SdkHttpError.isInstance(error)) return error.status;
  if (SdkError.isInstance(error)) {
    const status = (error.data as { status?: unknown } | undefined)?.status;
    if (typeof status === 'number') return status;
  }
  const code = (error as { code?: unknown } | undefined)?.code;
  // The legacy SSE transport reports the HTTP status of its GET as a numeric `code`.
  if (typeof code === 'number' && code >= 100 && code < 600) return code;
  return undefined;
}

export function isTimeout(error: unknown): boolean {
  return SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout;
}

export function isUnauthorized(error: unknown): boolean {
  return UnauthorizedError.isInstance(error) || httpStatusOf(error) === 401;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/** The request never got an answer from the server at all (no connection, or it broke): not an HTTP or protocol error. */
export function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const cause = (error as Error & { cause?: unknown }).cause;
  if (error.message === 'fetch failed' || error.message === 'terminated') return true;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/** One line describing why a connection or a call failed. */
/**
 * A document that failed the SDK's schema check (OAuth metadata, a registration answer) is a
 * ZodError whose message is its issues as a JSON array: the first line would read "[". Its issues
 * say what was wrong, field by field.
 */
function schemaIssues(error: unknown): string | undefined {
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return undefined;
  const said = issues.slice(0, 3).map((issue: { path?: unknown; message?: unknown }) => {
    const where = Array.isArray(issue.path) && issue.path.length > 0 ? issue.path.join('.') : 'the document';
    return `${where}: ${firstLine(String(issue.message ?? 'invalid'))}`;
  });
  const more = issues.length > 3 ? `; and ${issues.length - 3} more` : '';
  return `the server sent a document that is not valid (${said.join('; ')}${more})`;
}

export function describeError(error: unknown, timeoutMs?: number): string {
  if (isTimeout(error)) {
    const data = (error as SdkError).data as { timeout?: unknown } | undefined;
    const ms = typeof data?.timeout === 'number' ? data.timeout : timeoutMs;
    return ms !== undefined ? `timed out after ${formatDuration(ms)}` : 'timed out';
  }
  const status = httpStatusOf(error);
  if (status !== undefined) {
    const hint = bodyHint((error as SdkError).data && ((error as SdkError).data as { text?: unknown }).text);
    const reason = hint && hint !== String(status) ? `: ${hint}` : '';
    return `HTTP ${status}${reason}`;
  }
  if (UnauthorizedError.isInstance(error)) return 'HTTP 401 (authorization required)';
  if (ProtocolError.isInstance(error)) return firstLine(error.message);
  const invalid = schemaIssues(error);
  if (invalid) return invalid;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const syscall = (error as NodeJS.ErrnoException).syscall;
    const path = (error as NodeJS.ErrnoException & { path?: string }).path;
    // Node's spawn errors already read `spawn npx ENOENT`; network errors hide the reason in `cause`.
    if (syscall && code && path && error.message.includes(code)) return firstLine(error.message);
    const cause = (error as Error & { cause?: unknown }).cause;
    if (error.message === 'fetch failed' && cause instanceof Error) {
      const causeCode = (cause as NodeJS.ErrnoException).code;
      return causeCode ? `cannot reach the server (${causeCode})` : `cannot reach the server (${firstLine(cause.message)})`;
    }
    return firstLine(error.message) || error.name;
  }
  return firstLine(String(error));
}
