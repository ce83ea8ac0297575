import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthStore } from './oauth-store';
import { checkSignInUrl } from './sign-in-url';

// OAuth 2.0 authorization code + PKCE through the SDK's provider interface. The SDK does discovery,
// registration, PKCE, token exchange and refresh; this class keeps the results on disk and runs the
// loopback redirect (RFC 8252 §7.3: the browser returns to http://127.0.0.1:<port>/callback).

export const CALLBACK_PATH = '/callback';
const AUTHORIZATION_WAIT_MS = 5 * 60_000;

export interface OAuthSettings {
  clientName: string;
  clientId?: string;
  clientSecret?: string;
  scopes?: string[];
  /** Loopback port for the redirect; chosen before the flow starts (0 is resolved by the caller). */
  callbackPort: number;
  /** Published client metadata document, used as client_id where the server supports that. */
  clientMetadataUrl?: string;
  /** False when nobody can sign in through a browser: an authorization is noted, never started. */
  interactive?: boolean;
}

/**
 * The ports the kernel gives outgoing connections (Linux's net.ipv4.ip_local_port_range; 32768-60999
 * by default, and macOS and Windows use 49152-65535). A callback port from this range can be taken
 * between choosing it and listening on it by any program's next connection: that happened while
 * the MCP conformance runner opened connections by the hundred.
 */
export function ephemeralPortRange(read: (file: string) => string = (file) => readFileSync(file, 'utf8')): { low: number; high: number } {
  try {
    const [low, high] = read('/proc/sys/net/ipv4/ip_local_port_range').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! > 0 && high! >= low!) return { low: low!, high: high! };
  } catch {
    // Not Linux: the IANA range that the others use.
  }
  return { low: 49152, high: 65535 };
}

/** Callback ports are chosen at random from here, below the ephemeral range. */
const FIRST_CALLBACK_PORT = 10_000;
const PORT_TRIES = 20;

function listensOn(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}

/**
 * Finds a free loopback port for the callback (the redirect URL must be known before the flow
 * begins, and the callback listens only when the browser is sent off). It is chosen below the
 * kernel's ephemeral range, where no outgoing connection can take it meanwhile; only when that
 * range leaves no room, or every try is taken, does the kernel pick one.
 */
export async function freeLoopbackPort(range = ephemeralPortRange()): Promise<number> {
  const last = Math.min(range.low - 1, 32_767);
  for (let tries = 0; last - FIRST_CALLBACK_PORT >= 1000 && tries < PORT_TRIES; tries++) {
    const port = await listensOn(FIRST_CALLBACK_PORT + Math.floor(Math.random() * (last - FIRST_CALLBACK_PORT + 1)));
    if (port !== undefined) return port;
  }
  const port = await listensOn(0);
  if (port === undefined) throw new Error('no free loopback port for the authorization callback');
  return port;
}

const PAGE = (message: string) =>
  `<!doctype html><meta charset="utf-8"><title>aish-tui</title><body style="font-family:sans-serif;margin:3em"><p>${message}</p></body>`;

export class AishOAuthProvider implements OAuthClientProvider {
  private verifier: string | undefined;
  private expectedState: string | undefined;
  private callbackServer: Server | undefined;
  /** Resolves with the callback's query once the user has authorized in the browser. */
  pendingAuthorization: Promise<URLSearchParams> | undefined;
  /** The URL the user must open, while an authorization is pending. */
  authorizationUrl: string | undefined;
  /** Requests running that the user did not ask for (liveness pings). */
  private unattendedRequests = 0;
  /** The server asked for a browser sign-in that was not started (non-interactive mode). */
  signInNeeded = false;

  constructor(
    private readonly store: OAuthStore,
    private readonly settings: OAuthSettings,
    private readonly onAuthorizationUrl: (url: string) => void,
  ) {}

  get clientMetadataUrl(): string | undefined {
    return this.settings.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.settings.callbackPort}${CALLBACK_PATH}`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.settings.clientName,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.settings.clientSecret ? 'client_secret_post' : 'none',
      ...(this.settings.scopes?.length ? { scope: this.settings.scopes.join(' ') } : {}),
    } as OAuthClientMetadata;
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  clientInformation(): StoredOAuthClientInformation | undefined {
    if (this.settings.clientId) {
      return {
        client_id: this.settings.clientId,
        ...(this.settings.clientSecret ? { client_secret: this.settings.clientSecret } : {}),
      } as StoredOAuthClientInformation;
    }
    return this.store.read().clientInformation as StoredOAuthClientInformation | undefined;
  }

  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.store.update((state) => ({ ...state, clientInformation: info as Record<string, unknown> }));
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.store.read().tokens as StoredOAuthTokens | undefined;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    const expiresIn = (tokens as { expires_in?: unknown }).expires_in;
    const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : undefined;
    this.store.update((state) => ({ ...state, tokens: tokens as StoredOAuthState['tokens'], expiresAt }));
  }

  /** True when an access token is stored but expired (or about to), and a refresh token exists. */
  needsRefresh(marginMs = 60_000): boolean {
    const state = this.store.read();
    return Boolean(state.tokens?.refresh_token && state.expiresAt !== undefined && state.expiresAt - marginMs <= Date.now());
  }

  hasTokens(): boolean {
    return Boolean(this.store.read().tokens?.access_token);
  }

  /**
   * Runs `work` (a request the user did not ask for) so that an authorization it needs is not
   * started: no browser opens while the user is away. The next call the user makes asks instead.
   */
  async unattended<T>(work: () => Promise<T>): Promise<T> {
    this.unattendedRequests += 1;
    try {
      return await work();
    } finally {
      this.unattendedRequests -= 1;
    }
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    // The address comes from the server's metadata: a hostile one is refused before anything else
    // (docs/ARCHITECTURE.md, Security invariants 10).
    const checked = checkSignInUrl(authorizationUrl.toString());
    if (!checked.ok) throw new Error(`the server's sign-in address ${authorizationUrl.href.split('?')[0]!.slice(0, 200)} was refused: ${checked.reason}`);
    if (this.unattendedRequests > 0) return;
    // A script or a headless run has nobody to complete it: no browser, no callback listener.
    if (this.settings.interactive === false) {
      this.signInNeeded = true;
      return;
    }
    const callback = this.listenForCallback();
    // The waiting is observed by the session; an unobserved rejection must not crash the process.
    callback.params.catch(() => {});
    // The address is shown only once the callback port accepts connections: a browser that is
    // quick (or a machine that is busy) must not come back to a port nobody listens on yet.
    await callback.listening;
    this.pendingAuthorization = callback.params;
    this.authorizationUrl = authorizationUrl.toString();
    this.onAuthorizationUrl(this.authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the authorization was not started by this process');
    return this.verifier;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.store.update((stored) => ({ ...stored, discoveryState: state as unknown as Record<string, unknown> }));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.store.read().discoveryState as OAuthDiscoveryState | undefined;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'verifier') {
      this.verifier = undefined;
      return;
    }
    this.store.update((state) => ({
      serverUrl: state.serverUrl,
      clientInformation: scope === 'all' || scope === 'client' ? undefined : state.clientInformation,
      tokens: scope === 'all' || scope === 'tokens' ? undefined : state.tokens,
      expiresAt: scope === 'all' || scope === 'tokens' ? undefined : state.expiresAt,
      discoveryState: scope === 'all' || scope === 'discovery' ? undefined : state.discoveryState,
    }));
  }

  secrets(): string[] {
    return [...this.store.secrets(), ...(this.verifier ? [this.verifier] : [])];
  }

  /** Stops waiting for a browser callback. */
  cancel(): void {
    this.callbackServer?.close();
    this.callbackServer = undefined;
  }

  /** Starts the loopback callback server: `listening` settles once it is bound, `params` when the browser comes back. */
  private listenForCallback(): { listening: Promise<void>; params: Promise<URLSearchParams> } {
    this.cancel();
    let bound!: () => void;
    let notBound!: (error: Error) => void;
    const listening = new Promise<void>((resolve, reject) => {
      bound = resolve;
      notBound = reject;
    });
    const params = new Promise<URLSearchParams>((resolve, reject) => {
      const server = createServer((request, response) => {
        const url = new URL(request.url ?? '/', 'http://127.0.0.1');
        if (url.pathname !== CALLBACK_PATH) {
          response.writeHead(404).end();
          return;
        }
        const params = url.searchParams;
        const finish = (status: number, message: string) => {
          response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', connection: 'close' }).end(PAGE(message));
          done();
        };
        if (this.expectedState !== undefined && params.get('state') !== this.expectedState) {
          finish(400, 'The authorization response did not match the request (state mismatch). Try again from aish-tui.');
          reject(new Error('authorization callback had the wrong state parameter'));
          return;
        }
        const error = params.get('error');
        if (error) {
          finish(400, 'Authorization was not granted. You can close this tab.');
          reject(new Error(`authorization was not granted (${error.slice(0, 60)})`));
          return;
        }
        if (!params.get('code')) {
          finish(400, 'The authorization response carried no code.');
          reject(new Error('authorization callback carried no code'));
          return;
        }
        finish(200, 'Authorization complete. You can close this tab and return to aish-tui.');
        resolve(params);
      });
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no authorization within ${AUTHORIZATION_WAIT_MS / 60_000} minutes`));
      }, AUTHORIZATION_WAIT_MS);
      timer.unref();
      const done = () => {
        clearTimeout(timer);
        server.close();
        server.closeAllConnections?.();
        if (this.callbackServer === server) this.callbackServer = undefined;
      };
      server.once('error', (error) => {
        done();
        const failure = new Error(`cannot listen for the authorization callback on 127.0.0.1:${this.settings.callbackPort}: ${(error as Error).message}`);
        notBound(failure);
        reject(failure);
      });
      server.on('close', () => {
        const cancelled = new Error('authorization cancelled');
        notBound(cancelled);
        reject(cancelled);
      });
      server.listen(this.settings.callbackPort, '127.0.0.1', bound);
      server.unref();
      this.callbackServer = server;
    });
    return { listening, params };
  }
}

type StoredOAuthState = import('./oauth-store').StoredOAuthState;
