import { describe, expect, it } from 'vitest';
import { acceptAnswer, fieldProblem, formFromSchema, formProblems, initialInput, initialInputs } from '../../../src/services/mcp/elicitation-form';
import type { ElicitationForm, FormField } from '../../../src/services/mcp/types';

// The elicitation form as data (README, "Elicitation"): every field type the spec allows, their
// defaults, the problems shown under a field, and the content sent back.

function formOf(schema: unknown): ElicitationForm {
  const read = formFromSchema(schema);
  if ('problem' in read) throw new Error(read.problem);
  return read.form;
}

function field(property: Record<string, unknown>, required = false): FormField {
  return formOf({ type: 'object', properties: { f: property }, required: required ? ['f'] : [] }).fields[0]!;
}

describe('fields from the requested schema', () => {
  it('reads strings with format and length limits, numbers, integers, booleans', () => {
    const form = formOf({
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Name', description: 'Your name', minLength: 2, maxLength: 5 },
        email: { type: 'string', format: 'email' },
        age: { type: 'integer', minimum: 0, maximum: 150 },
        score: { type: 'number' },
        ok: { type: 'boolean' },
      },
      required: ['name'],
    });
    expect(form.fields).toEqual([
      { name: 'name', title: 'Name', description: 'Your name', required: true, kind: 'text', minLength: 2, maxLength: 5 },
      { name: 'email', title: 'email', required: false, kind: 'text', format: 'email' },
      { name: 'age', title: 'age', required: false, kind: 'number', integer: true, minimum: 0, maximum: 150 },
      { name: 'score', title: 'score', required: false, kind: 'number', integer: false },
      { name: 'ok', title: 'ok', required: false, kind: 'boolean' },
    ]);
  });

  it('reads single-select enums: untitled, titled (oneOf const+title) and legacy enumNames', () => {
    expect(field({ type: 'string', enum: ['a', 'b'] })).toMatchObject({ kind: 'choice', multiple: false, options: [{ value: 'a', label: 'a' }, { value: 'b', label: 'b' }] });
    expect(field({ type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }] })).toMatchObject({
      kind: 'choice',
      options: [{ value: 'h1', label: 'Superman' }, { value: 'h2', label: 'Batman' }],
    });
    expect(field({ type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'] })).toMatchObject({ options: [{ value: 'p1', label: 'Cats' }, { value: 'p2', label: 'Dogs' }] });
  });

  it('reads multi-select enums: untitled items.enum and titled items.anyOf, with item limits', () => {
    expect(field({ type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['x', 'y', 'z'] } })).toMatchObject({ kind: 'choice', multiple: true, minItems: 1, maxItems: 2 });
    expect(field({ type: 'array', items: { anyOf: [{ const: 'f1', title: 'Tuna' }] } })).toMatchObject({ kind: 'choice', multiple: true, options: [{ value: 'f1', label: 'Tuna' }] });
  });

  it('refuses what a flat form cannot show, saying which field', () => {
    expect(formFromSchema({ type: 'object', properties: { deep: { type: 'object', properties: {} } } })).toEqual({ problem: 'field deep: type "object" is not supported' });
    expect(formFromSchema({ type: 'object', properties: { list: { type: 'array', items: { type: 'string' } } } })).toEqual({ problem: 'field list: an array without enum items is not supported' });
    expect(formFromSchema({ type: 'object' })).toEqual({ problem: 'the requested schema has no properties' });
  });
});

describe('defaults', () => {
  it('prefills every kind of field with its default', () => {
    const form = formOf({
      type: 'object',
      properties: {
        s: { type: 'string', default: 'John' },
        i: { type: 'integer', default: 30 },
        n: { type: 'number', default: 95.5 },
        b: { type: 'boolean', default: true },
        e: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
        m: { type: 'array', items: { enum: ['g', 'p'] }, default: ['p'] },
      },
    });
    expect(initialInputs(form)).toEqual(['John', '30', '95.5', true, ['active'], ['p']]);
    expect(acceptAnswer(form, initialInputs(form))).toEqual({ action: 'accept', content: { s: 'John', i: 30, n: 95.5, b: true, e: 'active', m: ['p'] } });
  });

  it('starts empty without a default (a boolean unchecked), and drops a default that is not a choice', () => {
    expect(initialInput(field({ type: 'string' }))).toBe('');
    expect(initialInput(field({ type: 'number' }))).toBe('');
    expect(initialInput(field({ type: 'boolean' }))).toBe(false);
    expect(initialInput(field({ type: 'string', enum: ['a'], default: 'zzz' }))).toEqual([]);
  });
});

describe('validation', () => {
  it('requires a value in a required field, and only there', () => {
    expect(fieldProblem(field({ type: 'string' }, true), '')).toBe('required');
    expect(fieldProblem(field({ type: 'string' }), '')).toBeUndefined();
    expect(fieldProblem(field({ type: 'string', enum: ['a'] }, true), [])).toBe('required');
  });

  it('checks string lengths in characters and each format', () => {
    const limited = field({ type: 'string', minLength: 2, maxLength: 3 });
    expect(fieldProblem(limited, 'a')).toBe('at least 2 characters');
    expect(fieldProblem(limited, 'abcd')).toBe('at most 3 characters');
    expect(fieldProblem(limited, 'äöü')).toBeUndefined();
    expect(fieldProblem(field({ type: 'string', format: 'email' }), 'ada@example')).toMatch(/not an email/);
    expect(fieldProblem(field({ type: 'string', format: 'email' }), 'ada@example.com')).toBeUndefined();
    expect(fieldProblem(field({ type: 'string', format: 'uri' }), 'not a uri')).toMatch(/not a URI/);
    expect(fieldProblem(field({ type: 'string', format: 'uri' }), 'https://example.com/x')).toBeUndefined();
    expect(fieldProblem(field({ type: 'string', format: 'date' }), '2024-02-30')).toMatch(/not a date/);
    expect(fieldProblem(field({ type: 'string', format: 'date' }), '2024-02-29')).toBeUndefined();
    expect(fieldProblem(field({ type: 'string', format: 'date-time' }), '2024-02-29 10:00')).toMatch(/not a date and time/);
    expect(fieldProblem(field({ type: 'string', format: 'date-time' }), '2024-02-29T10:00:00Z')).toBeUndefined();
  });

  it('checks numbers, whole numbers and bounds', () => {
    const integer = field({ type: 'integer', minimum: 1, maximum: 100 });
    expect(fieldProblem(integer, 'x')).toBe('not a whole number');
    expect(fieldProblem(integer, '2.5')).toBe('not a whole number');
    expect(fieldProblem(integer, '0')).toBe('at least 1');
    expect(fieldProblem(integer, '101')).toBe('at most 100');
    expect(fieldProblem(integer, '42')).toBeUndefined();
    expect(fieldProblem(field({ type: 'number' }), 'abc')).toBe('not a number');
    expect(fieldProblem(field({ type: 'number' }), '-3.14')).toBeUndefined();
  });

  it('checks choices: known values, one for a single select, item limits for a multi-select', () => {
    const multi = field({ type: 'array', minItems: 1, maxItems: 2, items: { enum: ['a', 'b', 'c'] } });
    expect(fieldProblem(multi, ['a', 'b', 'c'])).toBe('choose at most 2');
    expect(fieldProblem(multi, ['a', 'q'])).toBe('not one of the choices');
    expect(fieldProblem(field({ type: 'array', minItems: 2, items: { enum: ['a', 'b'] } }), ['a'])).toBe('choose at least 2');
    expect(fieldProblem(field({ type: 'string', enum: ['a', 'b'] }), ['a', 'b'])).toBe('choose one');
  });

  it('accepts only a form without problems, leaving out empty optional fields, and sends numbers as numbers', () => {
    const form = formOf({ type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' }, pick: { type: 'string', enum: ['a'] } }, required: ['name'] });
    expect(formProblems(form, ['', '', []])).toEqual(['required', undefined, undefined]);
    expect(acceptAnswer(form, ['', '', []])).toBeUndefined();
    expect(acceptAnswer(form, ['Ada', '', []])).toEqual({ action: 'accept', content: { name: 'Ada' } });
    expect(acceptAnswer(form, ['Ada', ' 7 ', ['a']])).toEqual({ action: 'accept', content: { name: 'Ada', age: 7, pick: 'a' } });
  });
});
