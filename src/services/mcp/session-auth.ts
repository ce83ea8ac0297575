import { auth } from '@modelcontextprotocol/client';
import { isStdioServer } from '../config/checks';
import type { ServerConfig } from '../config/schema';
import { secretSettings } from '../config/secrets';
import { describeError } from './errors';
import { AishOAuthProvider, freeLoopbackPort } from './oauth';
import { OAuthStore } from './oauth-store';
import { checkSignInUrl } from './sign-in-url';
import type { ResolvedMcpOptions } from './options';

// A server's credentials: the static Bearer token (authToken > authEnv > none), the OAuth provider
// when there is no static token, and the list of secrets that must never appear in any message.

type Status = (level: 'info' | 'warn' | 'error', message: string) => void;

export class SessionAuth {
  oauth: AishOAuthProvider | undefined;

  constructor(
    private readonly alias: string,
    private readonly config: ServerConfig | undefined,
    private readonly options: ResolvedMcpOptions,
    private readonly status: Status,
  ) {}

  /** Known secrets of this server, scrubbed from every message. */
  secrets(): string[] {
    const config = this.config;
    const values: string[] = [];
    if (config && !isStdioServer(config)) {
      if (config.authToken) values.push(config.authToken);
      if (config.authEnv && this.options.env[config.authEnv]) values.push(this.options.env[config.authEnv]!);
      values.push(...secretSettings(config.headers));
      if (config.oauth?.clientSecret) values.push(config.oauth.clientSecret);
    }
    if (config && isStdioServer(config)) values.push(...secretSettings(config.env));
    if (this.oauth) values.push(...this.oauth.secrets());
    return values;
  }

  bearerToken(): string | undefined {
    const config = this.config;
    if (!config || isStdioServer(config)) return undefined;
    if (config.authToken) return config.authToken;
    if (config.authEnv) {
      const value = this.options.env[config.authEnv];
      if (value) return value;
      this.status('warn', `mcp ${this.alias}: $${config.authEnv} is not set; connecting without a token`);
    }
    return undefined;
  }

  async oauthProvider(): Promise<AishOAuthProvider | undefined> {
    const config = this.config;
    if (!config || isStdioServer(config)) return undefined;
    if (!this.oauth) {
      const store = new OAuthStore(this.options.stateDir, this.alias, config.url);
      const registered = store.read().clientInformation as { redirect_uris?: unknown } | undefined;
      // Keep the port of an existing registration: its redirect URI was registered with it.
      const registeredPort = Array.isArray(registered?.redirect_uris) ? Number(new URL(String(registered.redirect_uris[0])).port) : NaN;
      const port = config.oauth?.callbackPort || (Number.isInteger(registeredPort) && registeredPort > 0 ? registeredPort : await freeLoopbackPort());
      this.oauth = new AishOAuthProvider(
        store,
        {
          clientName: this.options.clientName,
          clientId: config.oauth?.clientId,
          clientSecret: config.oauth?.clientSecret,
          scopes: config.oauth?.scopes,
          callbackPort: port,
          clientMetadataUrl: config.oauth?.clientMetadataUrl,
          interactive: this.options.interactive,
        },
        (url) => {
          const host = new URL(url).host;
          const confirm = this.options.confirmOpen;
          this.status('info', `mcp ${this.alias}: sign in at ${host}${confirm ? '' : ' (select the server in the sidebar and press o to open it in your browser)'}; authorize in your browser: ${url}`);
          // Nothing opens unasked: the user sees the whole address first and says yes.
          if (confirm) void confirm(url, host).then((yes) => (yes ? this.options.openUrl(url) : undefined), () => undefined);
        },
      );
    }
    return this.oauth;
  }

  /**
   * Opens the pending sign-in address in the browser, because the user asked to (sidebar `o`);
   * returns what to tell the user.
   */
  async openSignIn(shown: string | undefined): Promise<string> {
    const url = this.oauth?.pendingAuthorization && shown === this.oauth.authorizationUrl ? shown : undefined;
    if (!url) return `mcp ${this.alias}: no sign-in is waiting`;
    const checked = checkSignInUrl(url);
    if (!checked.ok) return `mcp ${this.alias}: the sign-in address was refused (${checked.reason})`;
    await this.options.openUrl(checked.url);
    return `mcp ${this.alias}: opening ${checked.host} in your browser`;
  }

  /** Refreshes an expired OAuth token before connecting, so a reconnect does not start with a 401. */
  async refreshIfNeeded(oauth: AishOAuthProvider | undefined): Promise<void> {
    const config = this.config;
    if (!oauth || !config || isStdioServer(config) || !oauth.needsRefresh()) return;
    try {
      await auth(oauth, { serverUrl: config.url, fetchFn: this.options.fetch });
    } catch (error) {
      this.status('warn', `mcp ${this.alias}: token refresh failed (${describeError(error)}); trying the stored token`);
    }
  }

  /**
   * Waits for the browser authorization a call started (a step-up to a wider scope), or for the
   * caller's abort, and finishes it on the live transport. True when the call may be retried.
   */
  async completeStepUp(liveTransport: unknown, signal?: AbortSignal): Promise<boolean> {
    const pending = this.oauth?.pendingAuthorization;
    const transport = liveTransport as { finishAuth?: (params: URLSearchParams) => Promise<void> } | undefined;
    if (!pending || !transport?.finishAuth) return false;
    this.status('info', `mcp ${this.alias}: the call needs more authorization; waiting for the browser`);
    try {
      const aborted = new Promise<never>((_, reject) => {
        if (signal?.aborted) reject(new Error('cancelled'));
        signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
      });
      const params = await Promise.race([pending, aborted]);
      await transport.finishAuth(params);
      return true;
    } catch (error) {
      if (!signal?.aborted) this.status('warn', `mcp ${this.alias}: authorization failed: ${describeError(error)}`);
      return false;
    } finally {
      if (this.oauth) this.oauth.pendingAuthorization = undefined;
    }
  }

  /** Stops waiting for a browser authorization. */
  cancel(): void {
    this.oauth?.cancel();
  }
}
