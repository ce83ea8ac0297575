import type { ConnectAttempt } from './connect-attempt';
import { describeError, isUnauthorized } from './errors';
import type { AishOAuthProvider } from './oauth';
import type { SessionView } from './session-view';

// A connect that failed for want of authorization (session.ts): say so when nobody can sign in
// here, or wait for the browser to come back and connect again, at most MAX_ROUNDS times in a row
// (a server that keeps asking would otherwise loop).

const MAX_ROUNDS = 2;

export class AuthorizationRounds {
  /** The HTTP transport of the latest attempt: finishing the sign-in needs that one. */
  pendingTransport: { finishAuth(params: URLSearchParams): Promise<void> } | undefined;
  /** Browser authorizations completed since the user asked to connect. */
  private rounds = 0;

  constructor(
    private readonly alias: string,
    private readonly view: Pick<SessionView, 'update' | 'status' | 'showError' | 'stderrLines'>,
    private readonly connectAgain: () => Promise<unknown>,
  ) {}

  /** The user asked to connect: the count starts again. */
  reset(): void {
    this.rounds = 0;
  }

  /** Handles an authorization failure of `attempt`; false when `error` is not one (or cannot be helped). */
  handle(error: unknown, oauth: AishOAuthProvider | undefined, attempt: ConnectAttempt): boolean {
    if (!isUnauthorized(error) || !oauth) return false;
    if (oauth.signInNeeded) {
      // Non-interactive: nobody waits for a browser here; the user signs in from a shell.
      const line = `needs authorization: run aish-tui mcp login ${this.alias}`;
      this.view.update({ state: 'needs-auth', error: line, authUrl: undefined, stderr: this.view.stderrLines() });
      this.view.status('warn', `mcp ${this.alias}: ${line}`);
      return true;
    }
    if (!oauth.pendingAuthorization || !oauth.authorizationUrl) return false;
    if (this.rounds >= MAX_ROUNDS) {
      oauth.cancel();
      this.view.showError(`authorization did not succeed after ${MAX_ROUNDS} attempts`, { authUrl: undefined });
      return true;
    }
    this.view.update({ state: 'needs-auth', error: 'authorization required: open the URL to continue', authUrl: oauth.authorizationUrl, stderr: this.view.stderrLines() });
    this.await(oauth, attempt);
    return true;
  }

  /** After the browser comes back to the loopback callback: exchange the code, then connect again. */
  private await(oauth: AishOAuthProvider, attempt: ConnectAttempt): void {
    const transport = this.pendingTransport;
    oauth.pendingAuthorization
      ?.then(async (params) => {
        if (!attempt.current || !transport) return;
        await transport.finishAuth(params);
        this.view.status('info', `mcp ${this.alias}: authorized; connecting`);
        this.rounds += 1;
        await this.connectAgain();
      })
      .catch((error: unknown) => {
        if (!attempt.current) return;
        this.view.showError(`authorization failed: ${describeError(error)}`, { authUrl: undefined });
      });
  }
}
