// The client the official MCP conformance suite drives (`npm run conformance`). The runner starts a
// scenario server and runs this file with the server URL as the last argument and the scenario in
// $MCP_CONFORMANCE_SCENARIO. Everything goes through aish-tui's own MCP manager, as the app uses
// it: connect (with OAuth when the server asks for it), list tools, call the scenario's tool.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMcpManager } from '../src/services/mcp/client';
import { acceptAnswer, formFromSchema, initialInputs, type ElicitationHandler } from '../src/services/mcp/index';
import type { HttpServerConfig } from '../src/services/config/schema';
import { VERSION } from '../src/version';
import { followRedirects } from '../test/helpers/follow-redirects';

const serverUrl = process.argv.at(-1) ?? '';
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string };

// Stands in for the user at the elicitation frame: the form as the frame would prefill it (the
// schema's defaults), accepted as it is; a form that cannot be accepted that way is declined.
const acceptPrefilled: ElicitationHandler = async (request) => {
  if (request.mode !== 'form') return { action: 'decline' };
  const read = formFromSchema(request.schema);
  if ('problem' in read) return { action: 'decline' };
  return acceptAnswer(read.form, initialInputs(read.form)) ?? { action: 'decline' };
};

async function main(): Promise<number> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'aish-conformance-'));
  // Stands in for the user's browser: the suite's authorization server approves at once and
  // redirects to our loopback callback, which this follows like a browser would; the stand-in user
  // agrees to every sign-in address shown (the address checks still apply).
  const manager = createMcpManager({ stateDir, clientVersion: VERSION, openUrl: (url) => followRedirects(url), confirmOpen: async () => true, connectTimeoutMs: 20_000, elicit: acceptPrefilled, roots: [process.cwd()] });
  manager.subscribe((event) => {
    if (event.type === 'status') process.stderr.write(`${event.message}\n`);
    if (event.type === 'server') process.stderr.write(`state ${event.snapshot.state}${event.snapshot.error ? `: ${event.snapshot.error}` : ''}\n`);
  });
  try {
    const config: HttpServerConfig = {
      url: serverUrl,
      transport: 'http',
      oauth: {
        ...(context.client_id ? { clientId: context.client_id, clientSecret: context.client_secret } : {}),
        // The suite's stand-in for a published client metadata document (used only where the server supports it).
        clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
      },
    };
    await manager.connect('conformance', config);
    const [server] = await manager.settled(25_000);
    if (!server || server.state !== 'ready') {
      process.stderr.write(`not connected: ${server?.state} ${server?.error ?? ''}\n`);
      return 1;
    }
    const names = server.tools.map((tool) => tool.name);
    process.stderr.write(`scenario ${scenario}: tools ${names.join(', ')}\n`);
    const calls: Array<[string, Record<string, unknown>]> = [];
    if (names.includes('add_numbers')) calls.push(['add_numbers', { a: 5, b: 3 }]);
    if (names.includes('test-tool')) calls.push(['test-tool', {}]);
    if (names.includes('test_reconnection')) calls.push(['test_reconnection', {}]);
    if (names.includes('test_client_elicitation_defaults')) calls.push(['test_client_elicitation_defaults', {}]);
    for (const [name, args] of calls) {
      const outcome = await manager.callTool('conformance', name, args);
      process.stderr.write(`${name}: ${outcome.kind}: ${outcome.content.slice(0, 200)}\n`);
      if (outcome.isError) return 1;
    }
    return 0;
  } finally {
    await manager.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`conformance client failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  },
);
