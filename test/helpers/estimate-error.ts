/**
 * How far the context count made before a request is from what the server then counted
 * (README.md, "Context"): a conversation through the real runtime (broker client, built-in MCP
 * server and its tool definitions, the loop) against a context server (context-servers.ts) that
 * counts with its own rule and reports it as `usage.prompt_tokens`. Used by the context tests and
 * by `npm run bench` (bench/scenarios/estimate.ts) on the bench's fixtures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/services/config/load';
import type { Message } from '../../src/services/conversation/types';
import { createRuntime } from '../../src/runtime/runtime';
import { errorReply, textReply } from './scripted-broker';
import { MODEL_IDS, serverTokens, startContextServer, type ServerKind } from './context-servers';

export interface EstimateErrorOptions {
  kind: ServerKind;
  /** The answer of each turn (1-based). */
  answer: (turn: number) => string;
  turns: number;
  /** llama.cpp only: false answers `/tokenize` with a 404, so the estimate counts. */
  tokenize?: boolean;
}

export interface EstimateErrors {
  /** Per request: our count before it, and the server's. */
  requests: Array<{ estimated: number; reported: number }>;
  /** |estimated − reported| / reported of the first request (nothing calibrated yet). */
  first: number;
  /** The mean of the same over the later requests (calibrated on the earlier ones). */
  later: number;
}

export async function measureEstimateErrors(options: EstimateErrorOptions): Promise<EstimateErrors> {
  const server = await startContextServer(options.kind, 131_072);
  if (options.tokenize === false) server.serve('POST', '/tokenize', errorReply(404, { error: { message: 'File Not Found' } }));
  let turn = 0;
  server.route((request) => textReply(options.answer(turn), { usage: { prompt_tokens: serverTokens(request), completion_tokens: 100 } }));
  const home = mkdtempSync(path.join(os.tmpdir(), 'aish-estimate-'));
  const config = await loadConfig({ cli: { baseUrl: server.url, model: MODEL_IDS[options.kind] }, env: { HOME: home }, cwd: home });
  const runtime = createRuntime(config, { report: () => {}, env: { HOME: home } });
  try {
    runtime.mcp.connectAll(config.mcp.servers);
    await runtime.mcp.settled();
    await runtime.discoverWindow(config.defaultModel);
    let history: Message[] = [];
    const estimates: number[] = [];
    for (turn = 1; turn <= options.turns; turn++) {
      let estimated: number | undefined;
      for await (const event of runtime.converse({
        signal: new AbortController().signal,
        history,
        text: `Question ${turn}: how does part ${turn} of the system work, and what should I check first?`,
        model: config.models[config.defaultModel]!,
        approve: async () => ({ action: 'deny' }),
        confirmCommand: async () => ({ action: 'skip' }),
      })) {
        if (event.type === 'context' && !event.context.reported) estimated ??= event.context.used;
        if (event.type === 'message') history = [...history, event.message];
      }
      estimates.push(estimated ?? Number.NaN);
    }
    const reported = server.requests.filter((request) => request.path.endsWith('/chat/completions')).map(serverTokens);
    const requests = estimates.map((estimated, index) => ({ estimated, reported: reported[index] ?? Number.NaN }));
    const error = (entry: { estimated: number; reported: number }) => Math.abs(entry.estimated - entry.reported) / entry.reported;
    const later = requests.slice(1).map(error);
    return { requests, first: error(requests[0]!), later: later.reduce((sum, value) => sum + value, 0) / Math.max(1, later.length) };
  } finally {
    await runtime.close();
    await server.close();
    rmSync(home, { recursive: true, force: true });
  }
}
