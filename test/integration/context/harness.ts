// Set-up for the context budget tests: a context server of one kind (test/helpers/context-servers.ts),
// a real config pointing at it, and the real runtime (broker client, built-in MCP server, loop).
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '../../../src/services/config/load';
import type { ConversationEvent, Message } from '../../../src/services/conversation/types';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime';
import { MODEL_IDS, type ServerKind } from '../../helpers/context-servers';

export async function configFor(kind: ServerKind, url: string, overrides: (config: AppConfig) => void = () => {}): Promise<AppConfig> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'aish-context-'));
  const config = await loadConfig({ cli: { baseUrl: url, model: MODEL_IDS[kind] }, env: { HOME: home }, cwd: home });
  overrides(config);
  return config;
}

export async function startRuntime(config: AppConfig): Promise<Runtime> {
  const runtime = createRuntime(config, { report: () => {}, env: { HOME: config.paths.stateDir } });
  runtime.mcp.connectAll(config.mcp.servers);
  await runtime.mcp.settled();
  await runtime.discoverWindow(config.defaultModel);
  return runtime;
}

const at = '2026-01-01T00:00:00.000Z';

/** `turns` earlier exchanges, each with a long answer (about 200 tokens). */
export function longHistory(turns: number): Message[] {
  const history: Message[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    history.push({ id: `u${turn}`, role: 'user', content: `question number ${turn}: tell me about topic ${turn}`, at });
    history.push({ id: `a${turn}`, role: 'assistant', content: `Answer ${turn}. ${'This is a long answer with many words in it. '.repeat(16)}`, at, finishReason: 'stop' });
  }
  return history;
}

export async function converse(runtime: Runtime, history: Message[], text: string): Promise<{ events: ConversationEvent[]; messages: Message[] }> {
  const events: ConversationEvent[] = [];
  for await (const event of runtime.converse({
    signal: new AbortController().signal,
    history,
    text,
    model: runtime.config.models[runtime.config.defaultModel]!,
    approve: async () => ({ action: 'deny' }),
    confirmCommand: async () => ({ action: 'skip' }),
  })) {
    events.push(event);
  }
  const messages = events.flatMap((event) => (event.type === 'message' ? [event.message] : []));
  return { events, messages };
}

export const statuses = (events: ConversationEvent[]) => events.flatMap((event) => (event.type === 'status' || event.type === 'error' ? [`${event.type === 'error' ? 'error' : event.level}: ${event.message}`] : []));
