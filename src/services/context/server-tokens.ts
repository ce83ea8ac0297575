// Token counts from the model's own tokenizer, where the server offers one: llama.cpp's
// `POST /tokenize` (`{"content": text}` → `{"tokens": [ids…]}`). Counts are kept per server and
// text (by hash), so a request is counted part by part and only the parts not seen before are
// sent: the system prompt and the tool definitions once, each message once, all new parts of a
// request at the same time. A server that does not answer (404, an error, the time limit) is
// not asked again for a while, and every part without a count falls back to the calibrated
// estimate (estimate.ts, calibration.ts). Nothing here throws.
import { createHash } from 'node:crypto';
import { httpText } from '../broker/http-text';
import { buildHeaders, resolveApiKey } from '../broker/request';
import type { ModelConfig } from '../broker/types';
import { isObject } from '../broker/wire';
import { serverRoot } from './window';

export interface ServerTokens {
  /** The count of `text` already known for this model's server, else undefined (never waits). */
  cached(model: ModelConfig, text: string): number | undefined;
  /** Counts the texts not known yet (at once, under one time limit); resolves when done or given up. */
  count(model: ModelConfig, texts: readonly string[], signal?: AbortSignal): Promise<void>;
  /** Requests sent so far (tests, `:context`). */
  readonly asked: number;
}

export interface ServerTokensOptions {
  env: NodeJS.ProcessEnv;
  /** For all the texts of one request together (default 2 s). */
  timeoutMs?: number;
  /** After a failure the server is not asked for this long (default 5 min); a 404 stops it for the run. */
  backoffMs?: number;
  /** At most this many texts at once (default 8). */
  parallel?: number;
  /** Counts kept, across servers (default 4096). */
  maxEntries?: number;
  now?: () => number;
}

const RESPONSE_BYTES = 8 * 1024 * 1024;

const hashOf = (text: string) => createHash('sha1').update(text).digest('base64');

export function createServerTokens(options: ServerTokensOptions): ServerTokens {
  const counts = new Map<string, number>();
  const blockedUntil = new Map<string, number>();
  const maxEntries = options.maxEntries ?? 4096;
  const now = options.now ?? Date.now;
  let asked = 0;
  // Asked once per text of every request: the URL is parsed once per base URL.
  const roots = new Map<string, string | undefined>();
  const rootOf = (model: ModelConfig): string | undefined => {
    if (roots.has(model.baseUrl)) return roots.get(model.baseUrl);
    let root: string | undefined;
    try {
      root = serverRoot(model.baseUrl).href;
    } catch {
      root = undefined;
    }
    roots.set(model.baseUrl, root);
    return root;
  };
  // The hashes of the texts of the last request counted: the next request repeats them (a tool
  // loop resends the whole conversation), and hashing each again cost more than the rest of the count.
  let hashes = new Map<string, string>();
  let lastHashes = new Map<string, string>();
  const keyOf = (root: string, text: string) => {
    let hash = hashes.get(text) ?? lastHashes.get(text);
    if (hash === undefined) hash = hashOf(text);
    hashes.set(text, hash);
    return `${root} ${hash}`;
  };
  /** Servers with at least one count: for the others `cached` has nothing to look up. */
  const counted = new Set<string>();
  const remember = (key: string, tokens: number) => {
    counted.add(key.slice(0, key.lastIndexOf(' ')));
    counts.delete(key);
    counts.set(key, tokens);
    // Oldest first out: a Map keeps insertion order.
    if (counts.size > maxEntries) counts.delete(counts.keys().next().value!);
  };

  async function ask(model: ModelConfig, root: string, text: string, key: string | undefined, signal: AbortSignal): Promise<number | 'missing' | undefined> {
    const url = new URL('tokenize', root.endsWith('/') ? root : `${root}/`);
    try {
      asked++;
      const response = await httpText(url.href, {
        method: 'POST',
        headers: { ...buildHeaders(model, key), accept: 'application/json' },
        body: JSON.stringify({ content: text, add_special: false }),
        signal,
        maxBytes: RESPONSE_BYTES,
        redirect: 'error',
      });
      const body = response.text;
      if (response.status === 404 || response.status === 405 || response.status === 501) return 'missing';
      if (!response.ok) return undefined;
      const parsed: unknown = JSON.parse(body);
      return isObject(parsed) && Array.isArray(parsed.tokens) ? parsed.tokens.length : undefined;
    } catch {
      return undefined;
    }
  }

  return {
    get asked() {
      return asked;
    },
    cached(model, text) {
      const root = rootOf(model);
      return root === undefined || !counted.has(root) ? undefined : counts.get(keyOf(root, text));
    },
    async count(model, texts, signal) {
      // Only this request's texts keep their hashes (the history holds the texts anyway).
      lastHashes = hashes;
      hashes = new Map();
      const root = rootOf(model);
      if (root === undefined || (blockedUntil.get(root) ?? 0) > now()) return;
      const key = resolveApiKey(model, options.env);
      if (key.problem !== undefined) return;
      const wanted = new Map<string, string>();
      for (const text of texts) {
        const textKey = keyOf(root, text);
        if (text.length > 0 && !counts.has(textKey)) wanted.set(textKey, text);
      }
      if (wanted.size === 0) return;
      const limit = AbortSignal.timeout(options.timeoutMs ?? 2000);
      const all = signal ? AbortSignal.any([signal, limit]) : limit;
      const queue = [...wanted];
      let failed: 'missing' | 'error' | undefined;
      const worker = async () => {
        for (let next = queue.shift(); next && !failed && !all.aborted; next = queue.shift()) {
          const [textKey, text] = next;
          const tokens = await ask(model, root, text, key.key, all);
          if (typeof tokens === 'number') remember(textKey, tokens);
          else failed = tokens === 'missing' ? 'missing' : 'error';
        }
      };
      await Promise.all(Array.from({ length: Math.min(options.parallel ?? 8, queue.length) }, worker));
      if (failed === 'missing') blockedUntil.set(root, Number.POSITIVE_INFINITY);
      else if ((failed || limit.aborted) && !signal?.aborted) blockedUntil.set(root, now() + (options.backoffMs ?? 5 * 60_000));
    },
  };
}
