import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AishOAuthProvider, CALLBACK_PATH, ephemeralPortRange, freeLoopbackPort } from '../../../src/services/mcp/oauth';
import { OAuthStore } from '../../../src/services/mcp/oauth-store';

// The sign-in address is shown only once the loopback callback accepts connections. A browser
// that comes back before the port is bound gets "connection refused", and the app then waits for
// a callback that never comes (seen on a loaded machine: the test's "browser" was that quick).

/**
 * Whether something accepts connections on the port right now. A separate process does the
 * connecting while this one is blocked, so a bind the event loop has not run yet counts as absent.
 */
function acceptsNow(port: number): boolean {
  const probe = `require('net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`;
  try {
    execFileSync(process.execPath, ['-e', probe], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

function provider(port: number, onUrl: (url: string) => void): AishOAuthProvider {
  const store = new OAuthStore(mkdtempSync(path.join(tmpdir(), 'aish-oauth-callback-')), 'secure', 'http://127.0.0.1:9/mcp');
  return new AishOAuthProvider(store, { clientName: 'aish-tui', callbackPort: port }, onUrl);
}

const busy: Server[] = [];
const providers: AishOAuthProvider[] = [];
afterEach(async () => {
  for (const each of providers.splice(0)) each.cancel();
  for (const server of busy.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('the sign-in address and the loopback callback', () => {
  it('is shown only when the callback port already accepts connections, and the callback is then answered', async () => {
    const port = await freeLoopbackPort();
    const seen: Array<{ url: string; accepting: boolean }> = [];
    const oauth = provider(port, (url) => seen.push({ url, accepting: acceptsNow(port) }));
    providers.push(oauth);
    const state = oauth.state();

    await oauth.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize?client_id=x'));
    expect(seen).toEqual([{ url: 'http://127.0.0.1:9/authorize?client_id=x', accepting: true }]);
    expect(oauth.authorizationUrl).toBe('http://127.0.0.1:9/authorize?client_id=x');

    const response = await fetch(`http://127.0.0.1:${port}${CALLBACK_PATH}?code=abc&state=${state}`);
    expect(response.status).toBe(200);
    expect((await oauth.pendingAuthorization)?.get('code')).toBe('abc');
  });

  it('a callback port that is taken is an error that names it, and no address is shown', async () => {
    const taken = createServer();
    busy.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const seen: string[] = [];
    const oauth = provider(port, (url) => seen.push(url));
    providers.push(oauth);

    await expect(oauth.redirectToAuthorization(new URL('http://127.0.0.1:9/authorize'))).rejects.toThrow(
      `cannot listen for the authorization callback on 127.0.0.1:${port}: listen EADDRINUSE`,
    );
    expect(seen).toEqual([]);
    expect(oauth.pendingAuthorization).toBeUndefined();
    expect(oauth.authorizationUrl).toBeUndefined();
  });
});

describe('the callback port', () => {
  it('is chosen below the ports the kernel gives outgoing connections, so none can take it before the callback listens', async () => {
    const range = ephemeralPortRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freeLoopbackPort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(range.low);
    }
    // Chosen at random: twenty starts do not all wait on one port.
    expect(new Set(ports).size).toBeGreaterThan(10);
  });

  it('reads the range from the kernel, and falls back to the common one elsewhere', () => {
    expect(ephemeralPortRange(() => '32768\t60999\n')).toEqual({ low: 32768, high: 60999 });
    expect(ephemeralPortRange(() => 'garbage')).toEqual({ low: 49152, high: 65535 });
    expect(
      ephemeralPortRange(() => {
        throw new Error('ENOENT');
      }),
    ).toEqual({ low: 49152, high: 65535 });
  });

  it('lets the kernel choose when the ephemeral range leaves no room below it', async () => {
    const port = await freeLoopbackPort({ low: 1024, high: 65535 });
    expect(port).toBeGreaterThan(0);
  });
});
