import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/services/config/errors';
import { parseConfig } from '../../../src/services/config/parse';
import { buildBody, maxTokensOf } from '../../../src/services/broker/request';
import type { ModelConfig } from '../../../src/services/broker/types';

const model = (params: Record<string, unknown>, extra: Partial<ModelConfig> = {}): ModelConfig => ({ name: 'm', baseUrl: 'http://127.0.0.1:8080/v1', model: 'm', params, ...extra });

describe('model params', () => {
  it('are passed through as given, after our own keys, winning over temperature and maxTokens', () => {
    const body = buildBody(
      {
        model: model({ top_p: 0.9, seed: 7, stop: ['</a>'], chat_template_kwargs: { enable_thinking: false }, options: { num_ctx: 8192 }, temperature: 0.1, max_tokens: 99 }, { temperature: 0.7, maxTokens: 500 }),
        messages: [{ role: 'user', content: 'hi' }],
      },
      { includeUsage: true },
    );
    expect(body).toMatchObject({ top_p: 0.9, seed: 7, stop: ['</a>'], chat_template_kwargs: { enable_thinking: false }, options: { num_ctx: 8192 }, temperature: 0.1, max_tokens: 99, stream: true, model: 'm' });
    expect(maxTokensOf(model({ max_tokens: 99 }, { maxTokens: 500 }))).toBe(99);
    expect(maxTokensOf(model({}, { maxTokens: 500 }))).toBe(500);
  });

  it('may not set the keys aish-tui writes: the config is refused, naming the key and why', () => {
    let lines: string[] = [];
    try {
      parseConfig({ models: { m: { baseUrl: 'http://x/v1', model: 'm', params: { model: 'other', messages: [], stream: false, tools: [], max_tokens: -1 } } } }, 'config.json');
    } catch (error) {
      lines = (error as ConfigError).lines ?? [(error as Error).message];
    }
    const text = lines.join('\n');
    expect(text).toContain('models.m.params.model');
    expect(text).toContain("cannot be set in params: the model's `model` key names it");
    expect(text).toContain('models.m.params.messages');
    expect(text).toContain('models.m.params.stream');
    expect(text).toContain('models.m.params.tools');
    expect(text).toContain('models.m.params.max_tokens');
  });

  it('even a config that bypassed the schema cannot replace model, messages or stream', () => {
    const body = buildBody({ model: model({ model: 'evil', messages: [], stream: false, tools: [1], __proto__: { x: 1 } }), messages: [{ role: 'user', content: 'hi' }] }, { includeUsage: false });
    expect(body).toMatchObject({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(body.tools).toBeUndefined();
  });

  it('contextWindow and the context settings are accepted, autoCompactAt false too', () => {
    const parsed = parseConfig({ models: { m: { baseUrl: 'http://x/v1', model: 'm', contextWindow: 8192 } }, context: { autoCompactAt: false, keepTurns: 3 } }, 'config.json');
    expect(parsed.models!.m!.contextWindow).toBe(8192);
    expect(parsed.context).toMatchObject({ autoCompactAt: false, keepTurns: 3, windowTimeoutMs: 4000 });
    expect(parseConfig({}, 'x').context.autoCompactAt).toBe(0.85);
  });
});
