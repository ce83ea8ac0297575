import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createFileWindowStore } from '../../../src/services/context/window-store';
import { describeWindow } from '../../../src/runtime/context-lines';
import { windowFromAnswers, OLLAMA_DEFAULT_WINDOW } from '../../../src/services/context/window';
import { knownModelWindow } from '../../../src/services/context/known-models';
import { createWindowCache } from '../../../src/services/context/window-cache';
import type { ModelConfig } from '../../../src/services/broker/types';

describe('the window from what each server kind answered', () => {
  it('llama.cpp: the slot n_ctx of /props, never n_ctx_train (the trained maximum) of /v1/models', () => {
    const window = windowFromAnswers(
      { props: { default_generation_settings: { n_ctx: 4096 } }, models: { data: [{ id: 'm', meta: { n_ctx_train: 131072 } }] } },
      'm',
    );
    expect(window).toMatchObject({ tokens: 4096, maximum: 131072 });
    expect(window.source).toMatch(/llama\.cpp \/props/);
    // Without /props the trained size is not taken for the window.
    expect(windowFromAnswers({ models: { data: [{ id: 'm', meta: { n_ctx_train: 131072 } }] } }, 'm').tokens).toBeUndefined();
  });

  it("Ollama: the loaded model's context_length; before loading its num_ctx, else the default, said as provisional", () => {
    const show = { parameters: 'stop "x"', model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': 40960 } };
    expect(windowFromAnswers({ ollamaPs: { models: [{ name: 'qwen3:4b', context_length: 8192 }] }, ollamaShow: show }, 'qwen3:4b')).toMatchObject({ tokens: 8192, maximum: 40960 });
    expect(windowFromAnswers({ ollamaPs: { models: [{ name: 'llama3.2:latest', context_length: 2048 }] } }, 'llama3.2').tokens).toBe(2048);
    expect(windowFromAnswers({ ollamaPs: { models: [] }, ollamaShow: { ...show, parameters: 'num_ctx 16384\nstop "x"' } }, 'qwen3:4b').tokens).toBe(16384);
    const guess = windowFromAnswers({ ollamaPs: { models: [] }, ollamaShow: show }, 'qwen3:4b');
    expect(guess).toMatchObject({ tokens: OLLAMA_DEFAULT_WINDOW, provisional: true, maximum: 40960 });
    expect(guess.source).toMatch(/not loaded/);
  });

  it('LM Studio: the loaded context length; not loaded: unknown, provisional', () => {
    expect(windowFromAnswers({ lmStudio: { state: 'loaded', loaded_context_length: 4096, max_context_length: 32768 } }, 'q')).toMatchObject({ tokens: 4096, maximum: 32768 });
    const notLoaded = windowFromAnswers({ lmStudio: { state: 'not-loaded', max_context_length: 32768 } }, 'q');
    expect(notLoaded.tokens).toBeUndefined();
    expect(notLoaded).toMatchObject({ provisional: true, maximum: 32768 });
  });

  it('vLLM max_model_len, OpenRouter context_length, the table for known hosted models, else unknown (said so)', () => {
    expect(windowFromAnswers({ models: { data: [{ id: 'Qwen/Q', max_model_len: 8192 }] } }, 'Qwen/Q')).toMatchObject({ tokens: 8192 });
    expect(windowFromAnswers({ models: { data: [{ id: 'a/b', context_length: 32768 }, { id: 'c/d', context_length: 1 }] } }, 'a/b')).toMatchObject({ tokens: 32768 });
    expect(windowFromAnswers({ models: { data: [{ id: 'gpt-4o-mini' }] } }, 'gpt-4o-mini').tokens).toBe(128_000);
    expect(knownModelWindow('openai/gpt-4o')).toBe(128_000);
    const unknown = windowFromAnswers({ models: { data: [{ id: 'x' }] } }, 'my-model');
    expect(unknown.tokens).toBeUndefined();
    expect(unknown.source).toMatch(/^unknown: .*contextWindow/);
  });
});

describe('the window cache', () => {
  const model: ModelConfig = { name: 'm', baseUrl: 'http://127.0.0.1:9/v1', model: 'm' };

  it('asks once at a time, and contextWindow in the config wins without asking', async () => {
    let asked = 0;
    const cache = createWindowCache({ env: {} }, async () => {
      asked++;
      return { tokens: 4096, source: 'test' };
    });
    await Promise.all([cache.discover(model), cache.discover(model)]);
    expect(asked).toBe(1);
    expect(cache.get(model)?.tokens).toBe(4096);
    expect(cache.get({ ...model, contextWindow: 2048 })).toMatchObject({ tokens: 2048, source: 'contextWindow in the config' });
    await cache.discover({ ...model, contextWindow: 2048 });
    expect(asked).toBe(1);
  });

  it("a window the server stated in an error replaces a discovered one and is not lost to a later unknown", async () => {
    const cache = createWindowCache({ env: {} }, async () => ({ source: 'unknown: test' }));
    cache.learn(model, 3000);
    await cache.discover(model, { refresh: true });
    expect(cache.get(model)?.tokens).toBe(3000);
  });
});

describe('windows remembered between runs', () => {
  const model: ModelConfig = { name: 'm', baseUrl: 'http://user:pw@127.0.0.1:9/v1', model: 'm' };
  const fileIn = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-windows-')), 'state', 'context-windows.json');

  it('a discovered window is kept in the state file and used by the next run without asking, until it is stale', async () => {
    const file = fileIn();
    let clock = 1_000_000;
    let asked = 0;
    const ask = async () => {
      asked++;
      return { tokens: 4096, source: 'llama.cpp /props (n_ctx of a slot)', server: 'llama.cpp' as const };
    };
    const first = createWindowCache({ env: {}, store: createFileWindowStore(file), now: () => clock, maxAgeMs: 3_600_000 }, ask);
    await first.discover(model);
    expect(asked).toBe(1);
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain('pw');
    expect(JSON.parse(saved).windows['http://127.0.0.1:9/v1 m']).toMatchObject({ tokens: 4096, server: 'llama.cpp', askedAt: 1_000_000 });

    clock += 600_000;
    const second = createWindowCache({ env: {}, store: createFileWindowStore(file), now: () => clock, maxAgeMs: 3_600_000 }, ask);
    const heard: number[] = [];
    second.subscribe((_model, window) => heard.push(window.tokens ?? -1));
    expect(second.get(model)).toMatchObject({ tokens: 4096, server: 'llama.cpp', remembered: file });
    await second.discover(model);
    expect(asked).toBe(1);
    expect(heard).toEqual([4096]);
    expect(describeWindow(second.get(model), clock + 3 * 3_600_000)).toBe(`4096 tokens, from llama.cpp /props (n_ctx of a slot), asked 3 h ago (remembered in ${file})`);

    // Stale: asked again; a server that cannot be asked now does not lose the remembered number.
    clock += 3_600_000;
    const third = createWindowCache({ env: {}, store: createFileWindowStore(file), now: () => clock, maxAgeMs: 3_600_000 }, async () => {
      asked++;
      return { source: 'unknown: the server could not be asked' };
    });
    expect((await third.discover(model)).tokens).toBe(4096);
    expect(asked).toBe(2);
  });

  it('asked again when the server says otherwise: a prompt counted larger than the window, or a length error', async () => {
    const file = fileIn();
    let answer = 4096;
    let asked = 0;
    const cache = createWindowCache({ env: {}, store: createFileWindowStore(file) }, async () => {
      asked++;
      return { tokens: answer, source: 'llama.cpp /props (n_ctx of a slot)' };
    });
    await cache.discover(model);
    cache.counted(model, 3000);
    expect(asked).toBe(1);
    answer = 16384;
    cache.counted(model, 5000);
    await vi.waitFor(() => expect(cache.get(model)?.tokens).toBe(16384));
    expect(asked).toBe(2);
    cache.learn(model, 8192);
    const next = createWindowCache({ env: {}, store: createFileWindowStore(file) }, async () => ({ source: 'unknown' }));
    expect(next.get(model)).toMatchObject({ tokens: 8192, source: 'the server, in its error for a request that was too long' });
  });

  it('a malformed file is an empty one', () => {
    const file = fileIn();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{"version":1,"windows":{"http://127.0.0.1:9/v1 m":{"tokens":"x","source":1}}}');
    expect(createWindowCache({ env: {}, store: createFileWindowStore(file) }).get(model)).toBeUndefined();
    writeFileSync(file, 'not json');
    expect(createWindowCache({ env: {}, store: createFileWindowStore(file) }).get(model)).toBeUndefined();
  });
});
