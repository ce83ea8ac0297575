import { describe, expect, it } from 'vitest';
import { modelIdsOf, modelsUrl } from '../../../src/services/broker/models';

describe('the server\'s model list', () => {
  it('reads ids from the OpenAI shape and from llama-server / Ollama lists, in order, once each', () => {
    expect(modelIdsOf({ object: 'list', data: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] })).toEqual(['a', 'b']);
    expect(modelIdsOf({ models: [{ name: 'qwen:7b', model: 'qwen:7b' }, { model: 'phi' }] })).toEqual(['qwen:7b', 'phi']);
    expect(modelIdsOf({ data: [] })).toEqual([]);
    expect(modelIdsOf({ data: [{ id: '' }, { object: 'model' }] })).toEqual([]);
    expect(modelIdsOf({ error: 'nope' })).toBeUndefined();
    expect(modelIdsOf('text')).toBeUndefined();
  });

  it('asks <baseUrl>/models, keeping a query and dropping credentials', () => {
    expect(modelsUrl('http://127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1/models');
    expect(modelsUrl('http://127.0.0.1:8080/v1/')).toBe('http://127.0.0.1:8080/v1/models');
    expect(modelsUrl('https://user:pw@proxy.example/openai/v1?api-version=2024')).toBe('https://proxy.example/openai/v1/models?api-version=2024');
  });
});
