// Which configured values are secrets. Every occurrence of a secret is masked wherever text leaves
// aish-tui (screen, session log, error messages, --json output), so an ordinary value such as
// `LOG_LEVEL: "warn"` or a root directory must not count as one.
import type { AppConfig } from './load';

/** Header and variable names that carry credentials (X-Title or LOG_LEVEL do not). */
export const SECRET_NAME = /auth|key|token|secret|pass|cookie|credential|session/i;

/** A value counts when its name says so, or when it looks like a credential (long, one word, not a path or URL). */
export function isSecretSetting(name: string, value: string): boolean {
  if (SECRET_NAME.test(name)) return value.length >= 6;
  return value.length >= 12 && /^[A-Za-z0-9._~+=-]+$/.test(value) && /[0-9_-]|[a-z][A-Z]/.test(value);
}

/** The secret values of a headers or environment record; for `Bearer <token>` also the token alone. */
export function secretSettings(record: Record<string, string> | undefined): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(record ?? {})) {
    if (!isSecretSetting(name, value)) continue;
    out.push(value);
    const token = /^\s*\S+\s+(\S{6,})\s*$/.exec(value)?.[1];
    if (token) out.push(token);
  }
  return out;
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
