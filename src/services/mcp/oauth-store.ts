import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// OAuth client registrations and tokens, one JSON file per server under <stateDir>/oauth/, mode
// 0600 in a 0700 directory. The file is rewritten whole through a temporary file, so a crash never
// leaves half a token behind.

export interface StoredOAuthState {
  serverUrl: string;
  clientInformation?: Record<string, unknown>;
  tokens?: Record<string, unknown> & { access_token?: string; refresh_token?: string; expires_in?: number };
  /** Epoch milliseconds when the access token expires (computed when it was saved). */
  expiresAt?: number;
  discoveryState?: Record<string, unknown>;
}

export class OAuthStore {
  readonly file: string;

  constructor(stateDir: string, alias: string, serverUrl: string) {
    const urlHash = createHash('sha256').update(serverUrl).digest('hex').slice(0, 12);
    this.file = path.join(stateDir, 'oauth', `${alias}-${urlHash}.json`);
    this.serverUrl = serverUrl;
  }

  private readonly serverUrl: string;

  read(): StoredOAuthState {
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as StoredOAuthState;
      if (parsed && typeof parsed === 'object' && parsed.serverUrl === this.serverUrl) return parsed;
    } catch {
      // missing or unreadable: start fresh
    }
    return { serverUrl: this.serverUrl };
  }

  update(change: (state: StoredOAuthState) => StoredOAuthState): void {
    const next = change(this.read());
    const dir = path.dirname(this.file);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const temp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    renameSync(temp, this.file);
  }

  clear(): void {
    rmSync(this.file, { force: true });
  }

  /** Every secret in the file, so that error text can be scrubbed of them. */
  secrets(): string[] {
    const state = this.read();
    const values = [state.tokens?.access_token, state.tokens?.refresh_token, state.clientInformation?.client_secret];
    return values.filter((value): value is string => typeof value === 'string' && value.length > 0);
  }
}
