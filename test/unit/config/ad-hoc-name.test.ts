import { describe, expect, it } from 'vitest';
import { adHocModelName, MODEL_ID_FROM_SERVER } from '../../../src/services/config/load';

describe('the name of the --base-url model', () => {
  it('is its id when :model <name> can say it back', () => {
    expect(adHocModelName({}, 'qwen2.5-7b-instruct')).toBe('qwen2.5-7b-instruct');
    expect(adHocModelName({}, 'meta-llama/Llama-3.1-8B:q4')).toBe('meta-llama/Llama-3.1-8B:q4');
  });

  it('is cli while the id is unknown, when a configured model has that name, or when the id cannot be a name', () => {
    expect(adHocModelName({}, MODEL_ID_FROM_SERVER)).toBe('cli');
    expect(adHocModelName({ local: {} }, 'local')).toBe('cli');
    for (const id of ['__proto__', 'constructor', 'prototype', 'two words', 'tab\there', 'bidi\u202eid', 'zero\u200bwidth', 'x'.repeat(65)]) {
      expect(adHocModelName({}, id), JSON.stringify(id)).toBe('cli');
    }
  });
});
