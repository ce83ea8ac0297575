import { describe, expect, it } from 'vitest';
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
