import { basicAuthOf } from './request';
import type { ModelConfig } from './types';
import { errorMessageOf } from './wire';

/** Longest server text we put into one error line. */
export const SNIPPET_CHARS = 400;

/** One line, whitespace collapsed, at most `max` characters. */
export function oneLine(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * The readable part of an HTML error page (a proxy's or gateway's 401/502): its title, else its
 * text without tags. Undefined when the body is not HTML.
 */
export function htmlText(body: string): string | undefined {
  if (!/^\s*(<!doctype html|<html|<head|<body)/i.test(body)) return undefined;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1] ?? /<h1[^>]*>([\s\S]*?)<\/h1>/i.exec(body)?.[1];
  const text = (title ?? body.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return `${oneLine(text) || 'an HTML page'} (HTML page)`;
}

export interface HttpErrorContext {
  /** Where the credential the request carried came from (see credentialSource); undefined: none was sent. */
  keySource?: string;
  /** The model id the request named; undefined for requests that name none (the model list). */
  modelId?: string;
  url: string;
}

/** Configured headers that carry a credential themselves (they replace or add to the Bearer key). */
const CREDENTIAL_HEADER = /^(authorization|x-api-key|api-key)$/i;

/**
 * Where the credential a request to `model` carries comes from, in the words of the config, for
 * the 401/403 hint; undefined when the request carries none. Mirrors request.ts: a configured
 * Authorization header wins over the key, `apiKey` over `keyEnv`, and the base URL's user and
 * password count only without a key.
 */
export function credentialSource(model: Pick<ModelConfig, 'name' | 'apiKey' | 'keyEnv' | 'headers' | 'baseUrl'>): string | undefined {
  const header = Object.keys(model.headers ?? {}).find((name) => CREDENTIAL_HEADER.test(name));
  if (header && /^authorization$/i.test(header)) return `the ${header} header of model "${model.name}"`;
  if (model.apiKey) return `apiKey of model "${model.name}"`;
  if (model.keyEnv) return `$${model.keyEnv}`;
  if (header) return `the ${header} header of model "${model.name}"`;
  if (basicAuthOf(model.baseUrl)) return 'the user and password in the base URL';
  return undefined;
}

/** `HTTP <code>: <message or body snippet>`, with a hint for the statuses users can fix. */
export function httpErrorMessage(status: number, body: string, context: HttpErrorContext): string {
  let detail: string | undefined;
  try {
    detail = errorMessageOf(JSON.parse(body));
  } catch {
    detail = undefined;
  }
  const snippet = oneLine(detail ?? htmlText(body) ?? body) || '(empty body)';
  return `HTTP ${status}: ${snippet}${httpHint(status, context)}`;
}

function httpHint(status: number, context: HttpErrorContext): string {
  if (status === 401 || status === 403) {
    // A key was sent: asking whether the server needs one would send the user the wrong way.
    if (context.keySource) {
      return status === 401
        ? ` (the server rejected the key from ${context.keySource})`
        : ` (the server refused access with the key from ${context.keySource}: a wrong key, or one without access${context.modelId === undefined ? '' : ` to model "${context.modelId}"`})`;
    }
    return ' (no API key was sent: does this server need one? set keyEnv or apiKey for the model, or pass --api-key-env)';
  }
  if (status === 404) {
    return context.modelId === undefined ? ` (is ${context.url} right, ending in /v1?)` : ` (is ${context.url} right, ending in /v1, and does the server know model "${context.modelId}"?)`;
  }
  return '';
}

interface ErrorWithCause {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
}

/** The innermost `code` of a fetch failure (undici wraps the socket error in `cause`). */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  let code: string | undefined;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const value = (current as ErrorWithCause).code;
    if (typeof value === 'string') code = value;
    current = (current as ErrorWithCause).cause;
  }
  return code;
}

function innermostMessage(error: unknown): string {
  let current: unknown = error;
  let message = String(error);
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const value = (current as ErrorWithCause).message;
    if (typeof value === 'string' && value) message = value;
    current = (current as ErrorWithCause).cause;
  }
  return message;
}

const REASONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'DNS lookup failed',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  ECONNRESET: 'connection reset by the server',
  EPIPE: 'connection closed by the server',
  UND_ERR_SOCKET: 'connection closed by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed TLS certificate in chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host',
};

/** A short human reason for a network failure. */
export function networkReason(error: unknown): string {
  const code = errorCode(error);
  if (code && REASONS[code]) return REASONS[code]!;
  const message = innermostMessage(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function isLoopback(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}

/** `cannot reach <model> at <url>: <reason> (<hint>)` */
export function unreachableMessage(modelName: string, url: string, error: unknown): string {
  const hint = isLoopback(url)
    ? 'is llama-server, Ollama or LM Studio running there? --base-url points elsewhere'
    : 'check the URL and the network; --base-url points elsewhere';
  return `cannot reach ${modelName} at ${url}: ${networkReason(error)} (${hint})`;
}
