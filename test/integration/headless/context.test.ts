import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCompactionRequest, MODEL_IDS, startContextServer } from '../../helpers/context-servers';
import type { ScriptedBroker } from '../../helpers/scripted-broker';
import { makeScratchHome } from '../../helpers/terminal';
import { runAish, streamLines } from './run-headless';

// Headless mode measures and compacts like the TUI, and reports the numbers (README.md, "Context").
const open: ScriptedBroker[] = [];
afterEach(async () => {
  for (const server of open.splice(0)) await server.close();
});

function writeSession(home: string, id: string, turns: number): string {
  const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
  mkdirSync(dir, { recursive: true });
  const at = '2026-01-01T00:00:00.000Z';
  const lines = [JSON.stringify({ type: 'session', version: 1, id, createdAt: at })];
  for (let turn = 1; turn <= turns; turn++) {
    lines.push(JSON.stringify({ type: 'message', message: { id: `u${turn}`, role: 'user', content: `question number ${turn}`, at } }));
    lines.push(JSON.stringify({ type: 'message', message: { id: `a${turn}`, role: 'assistant', content: `Answer ${turn}. ${'A long answer with many words. '.repeat(25)}`, at, finishReason: 'stop' } }));
  }
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('headless context', () => {
  it('json output includes the window and the counts', async () => {
    const server = await startContextServer('vllm', 8192);
    open.push(server);
    const run = await runAish(['--base-url', server.url, '--model', MODEL_IDS.vllm, '-p', 'hello', '--output-format', 'json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as { context: Record<string, unknown> };
    expect(result.context).toMatchObject({ reported: true, window: 8192, window_source: 'vLLM /v1/models (max_model_len)', compactions: 0 });
    expect(result.context.tools_by_server).toHaveProperty('builtin');
    expect(result.context.used as number).toBeGreaterThan(0);
  });

  it('--continue on a long session compacts before the request, logs the compaction, and says so in stream-json', async () => {
    const server = await startContextServer('llama.cpp', 4096);
    open.push(server);
    const home = makeScratchHome('aish-headless-context-');
    const file = writeSession(home, '20260101-000000-abcdef', 10);
    const run = await runAish(['--base-url', server.url, '--model', MODEL_IDS['llama.cpp'], '--continue', '-p', 'and the next one?', '--output-format', 'stream-json'], { home });
    expect(run.code).toBe(0);
    const lines = streamLines(run.stdout);
    expect(lines.find((line) => line.type === 'compaction')).toMatchObject({ trigger: 'auto' });
    expect(lines.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
    const chats = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(chats.map(isCompactionRequest)).toEqual([true, false]);
    // The file keeps the old messages and gains the record, the new question and its answer.
    const roles = readFileSync(file, 'utf8').trim().split('\n').slice(1).map((line) => (JSON.parse(line) as { message: { role: string } }).message.role);
    expect(roles.slice(0, 20).every((role) => role === 'user' || role === 'assistant')).toBe(true);
    expect(roles.slice(20)).toEqual(['user', 'compaction', 'assistant']);
  });
});
