// Secrets never reach the session log (DESIGN.md §5.6). The keys and tokens the config names are
// known by value, so they are replaced wherever they appear (a model echoing a key, a tool result
// containing an Authorization header); bearer tokens and common API key shapes are masked too.
import type { AppConfig } from '../config/load';
import { secretSettings } from '../config/secrets';

export const REDACTED = '[redacted]';

/** Shorter values would mask ordinary words; no real key or token is this short. */
const MIN_SECRET_LENGTH = 6;

const PATTERNS: RegExp[] = [
  /(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // OpenAI / OpenRouter / Anthropic style keys.
  /\bsk-[A-Za-z0-9_-]{16,}/g,
];

export type Redactor = (text: string) => string;

export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const values = [...new Set([...secrets].filter((value): value is string => typeof value === 'string' && value.length >= MIN_SECRET_LENGTH))]
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const value of values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    for (const pattern of PATTERNS) out = out.replace(pattern, (match, prefix?: string) => (typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${REDACTED}` : REDACTED));
    return out;
  };
}

/** Every string field of a value, redacted (the value is copied, never changed in place). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, redact);
    return out as T;
  }
  return value;
}

/** The secret values a config refers to: API keys, bearer tokens, header values, OAuth client secrets. */
export function collectSecrets(config: Pick<AppConfig, 'models' | 'mcp'>, env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets: Array<string | undefined> = [];
  for (const model of Object.values(config.models)) {
    secrets.push(model.apiKey);
    if (model.keyEnv) secrets.push(env[model.keyEnv]);
    secrets.push(...secretSettings(model.headers));
  }
  for (const server of Object.values(config.mcp.servers)) {
    if ('url' in server) {
      secrets.push(server.authToken);
      if (server.authEnv) secrets.push(env[server.authEnv]);
      secrets.push(...secretSettings(server.headers));
      secrets.push(server.oauth?.clientSecret);
    } else {
      // A stdio server's environment is where its credentials usually are.
      secrets.push(...secretSettings(server.env));
    }
  }
  return secrets.filter((value): value is string => typeof value === 'string');
}
