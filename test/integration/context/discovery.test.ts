import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverContextWindow } from '../../../src/services/context/window';
import type { ModelConfig } from '../../../src/services/broker/types';
import { MODEL_IDS, SERVER_KINDS, startContextServer } from '../../helpers/context-servers';
import { hangReply, startScriptedBroker, type ScriptedBroker } from '../../helpers/scripted-broker';

const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close();
});

const modelAt = (url: string, id: string, extra: Partial<ModelConfig> = {}): ModelConfig => ({ name: 'm', baseUrl: url, model: id, ...extra });

const SOURCES = {
  'llama.cpp': /llama\.cpp \/props/,
  ollama: /Ollama \/api\/ps/,
  vllm: /vLLM .*max_model_len/,
  lmstudio: /LM Studio/,
  openrouter: /context_length/,
  openai: /documented window/,
} as const;

describe('asking the server for its window', () => {
  for (const kind of SERVER_KINDS) {
    it(`${kind}: the running window, from where that server says it`, async () => {
      const window = kind === 'openai' ? 8192 : 3000;
      const server = await startContextServer(kind, window);
      started.push(server);
      const found = await discoverContextWindow(modelAt(server.url, MODEL_IDS[kind]), { env: {} });
      expect(found.tokens).toBe(window);
      expect(found.source).toMatch(SOURCES[kind]);
    });
  }

  it('contextWindow in the config overrides the server and asks nothing', async () => {
    const server = await startContextServer('llama.cpp', 3000);
    started.push(server);
    const found = await discoverContextWindow(modelAt(server.url, 'local-model', { contextWindow: 1234 }), { env: {} });
    expect(found).toEqual({ tokens: 1234, source: 'contextWindow in the config' });
    expect(server.requests).toHaveLength(0);
    expect(server.probes).toHaveLength(0);
  });

  it('a server that is down, or answers nothing in time, leaves the window unknown and says why', async () => {
    const down = await discoverContextWindow(modelAt('http://127.0.0.1:9/v1', 'x'), { env: {} });
    expect(down.tokens).toBeUndefined();
    expect(down.source).toMatch(/^unknown: the server could not be asked/);
    const slow: ScriptedBroker = await startScriptedBroker();
    started.push(slow);
    slow.models(hangReply());
    slow.serve('GET', '/props', hangReply());
    const late = await discoverContextWindow(modelAt(slow.url, 'x'), { env: {}, timeoutMs: 300 });
    expect(late.source).toMatch(/did not answer in time/);
  });

  it('the API key goes only to the base URL\'s own server: a redirect elsewhere is not followed', async () => {
    const seen: string[] = [];
    const other = http.createServer((req, res) => {
      seen.push(String(req.headers.authorization ?? ''));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ default_generation_settings: { n_ctx: 999 } }));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    started.push({ close: () => new Promise<void>((resolve) => other.close(() => resolve())) });
    const otherUrl = `http://localhost:${(other.address() as AddressInfo).port}`;
    const server = await startScriptedBroker();
    started.push(server);
    server.serve('GET', '/props', { kind: 'body', status: 302, headers: { location: `${otherUrl}/props` }, body: '' });
    const found = await discoverContextWindow(modelAt(server.url, 'x', { apiKey: 'sk-secret-key-123' }), { env: {} });
    expect(found.tokens).toBeUndefined();
    expect(seen).toEqual([]);
    // The model's own server did get the key (its probes are allowed to).
    expect(server.probes.find((request) => request.path === '/props')?.headers.authorization).toBe('Bearer sk-secret-key-123');
  });
});
