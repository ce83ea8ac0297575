import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { followRedirects } from './follow-redirects';

// An MCP server protected by OAuth 2.0 (authorization code + PKCE, dynamic client registration,
// refresh tokens), with its authorization server on the same loopback port. The authorization
// endpoint approves at once and redirects back, as a browser session with a logged-in user would.

export interface OAuthMcpServer {
  url: string;
  /** Counts of what the authorization server was asked to do. */
  stats: { registrations: number; authorizations: number; codeExchanges: number; refreshes: number; rejectedTokens: number };
  /** Every access token issued so far (to check none of them leaks). */
  issuedTokens: string[];
  close(): Promise<void>;
}

export interface OAuthMcpOptions {
  /** Lifetime of issued access tokens in seconds. */
  expiresIn?: number;
  /**
   * Fields laid over the authorization server's metadata (a hostile server's document), each
   * given the server's base URL: `{ authorization_endpoint: () => 'file:///etc/passwd' }`.
   */
  metadata?: Record<string, (base: string) => unknown>;
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

export async function startOAuthMcpServer(options: OAuthMcpOptions = {}): Promise<OAuthMcpServer> {
  const stats = { registrations: 0, authorizations: 0, codeExchanges: 0, refreshes: 0, rejectedTokens: 0 };
  const issuedTokens: string[] = [];
  const validTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const clients = new Set<string>();
  let base = '';

  const issue = () => {
    const access = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    validTokens.add(access);
    refreshTokens.add(refresh);
    issuedTokens.push(access, refresh);
    return { access_token: access, token_type: 'Bearer', expires_in: options.expiresIn ?? 3600, refresh_token: refresh };
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', base);
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp' || url.pathname === '/.well-known/oauth-protected-resource') {
      return json(response, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
    }
    if (url.pathname === '/.well-known/oauth-authorization-server') {
      return json(response, 200, {
        issuer: base,
        authorization_endpoint: `${base}/authorize`,
        token_endpoint: `${base}/token`,
        registration_endpoint: `${base}/register`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none'],
        ...Object.fromEntries(Object.entries(options.metadata ?? {}).map(([key, value]) => [key, value(base)])),
      });
    }
    if (url.pathname === '/register' && request.method === 'POST') {
      stats.registrations += 1;
      const metadata = JSON.parse(await body(request)) as Record<string, unknown>;
      const clientId = `client-${randomBytes(6).toString('hex')}`;
      clients.add(clientId);
      return json(response, 201, { ...metadata, client_id: clientId, client_id_issued_at: Math.floor(Date.now() / 1000) });
    }
    if (url.pathname === '/authorize') {
      stats.authorizations += 1;
      const params = url.searchParams;
      if (!clients.has(params.get('client_id') ?? '') || params.get('code_challenge_method') !== 'S256') return json(response, 400, { error: 'invalid_request' });
      const code = `code-${randomBytes(8).toString('hex')}`;
      codes.set(code, { challenge: params.get('code_challenge') ?? '', redirectUri: params.get('redirect_uri') ?? '' });
      const back = new URL(params.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      if (params.get('state')) back.searchParams.set('state', params.get('state')!);
      response.writeHead(302, { location: back.href }).end();
      return;
    }
    if (url.pathname === '/token' && request.method === 'POST') {
      const form = new URLSearchParams(await body(request));
      if (form.get('grant_type') === 'authorization_code') {
        const entry = codes.get(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (!entry || entry.challenge !== challenge || entry.redirectUri !== form.get('redirect_uri')) return json(response, 400, { error: 'invalid_grant' });
        codes.delete(form.get('code')!);
        stats.codeExchanges += 1;
        return json(response, 200, issue());
      }
      if (form.get('grant_type') === 'refresh_token' && refreshTokens.has(form.get('refresh_token') ?? '')) {
        stats.refreshes += 1;
        return json(response, 200, issue());
      }
      return json(response, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/mcp') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (!token || !validTokens.has(token)) {
        if (token) stats.rejectedTokens += 1;
        await body(request);
        return json(response, 401, { error: 'invalid_token' }, { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
      }
      if (request.method !== 'POST') return json(response, 405, { error: 'method not allowed' });
      const message = JSON.parse(await body(request)) as { id?: number; method: string; params?: Record<string, unknown> };
      if (message.id === undefined) return response.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? { protocolVersion: (message.params?.protocolVersion as string) ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'oauth-protected', version: '1.0.0' } }
          : message.method === 'tools/list'
            ? { tools: [{ name: 'whoami', inputSchema: { type: 'object' } }] }
            : message.method === 'tools/call'
              ? { content: [{ type: 'text', text: 'an authorized user' }] }
              : {};
      return json(response, 200, { jsonrpc: '2.0', id: message.id, result });
    }
    json(response, 404, { error: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    stats,
    issuedTokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Does what the user's browser does: open the authorization URL and follow redirects to the callback. */
export const browse = followRedirects;
