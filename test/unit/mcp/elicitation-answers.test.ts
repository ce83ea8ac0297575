import { describe, expect, it } from 'vitest';
import { answerFromScript, parseElicitationAnswers } from '../../../src/services/mcp/elicitation-answers';
import { checkOpenableUrl } from '../../../src/services/mcp/url-check';
import type { FormElicitation } from '../../../src/services/mcp/types';

// `--elicitation` answers for -p and `mcp call` (README, "Elicitation"), and which URLs a server may
// ask the user to open.

const form: FormElicitation = {
  mode: 'form',
  alias: 'everything',
  message: 'Who are you?',
  schema: { type: 'object', properties: { name: { type: 'string' }, check: { type: 'boolean' }, n: { type: 'integer', default: 42 }, pet: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'] } }, required: ['name'] },
};

describe('--elicitation answers', () => {
  it('declines without answers, saying how to answer', () => {
    const { answer, note } = answerFromScript(form, undefined);
    expect(answer).toEqual({ action: 'decline' });
    expect(note).toMatch(/declined: pass --elicitation/);
  });

  it('takes a server section over a top-level field, keeps defaults, and maps option labels to values', () => {
    const answers = parseElicitationAnswers('{"name": "top", "everything": {"name": "Ada", "check": true, "pet": "Dogs"}}');
    expect(answerFromScript(form, answers).answer).toEqual({ action: 'accept', content: { name: 'Ada', check: true, n: 42, pet: 'pet-2' } });
    expect(answerFromScript({ ...form, alias: 'other' }, answers).answer).toEqual({ action: 'accept', content: { name: 'top', check: false, n: 42 } });
  });

  it('declines a form the answers leave invalid, naming the fields', () => {
    const { answer, note } = answerFromScript(form, { n: 'many' });
    expect(answer).toEqual({ action: 'decline' });
    expect(note).toContain('name: required; n: not a whole number');
  });

  it('declines or cancels for a server when its section says so', () => {
    expect(answerFromScript(form, { everything: 'cancel' }).answer).toEqual({ action: 'cancel' });
    expect(answerFromScript(form, { everything: 'decline', name: 'x' }).answer).toEqual({ action: 'decline' });
  });

  it('always declines a URL request, giving the URL', () => {
    const { answer, note } = answerFromScript({ mode: 'url', alias: 's', message: 'sign in', url: 'https://example.com/x', elicitationId: '1' }, { name: 'Ada' });
    expect(answer).toEqual({ action: 'decline' });
    expect(note).toContain('https://example.com/x');
  });

  it('says what is wrong with the option itself', () => {
    expect(() => parseElicitationAnswers('{nope')).toThrow(/--elicitation: not valid JSON/);
    expect(() => parseElicitationAnswers('[1]')).toThrow(/expected a JSON object/);
  });
});

describe('URLs a server may ask the user to open', () => {
  it('allows https and loopback http only', () => {
    expect(checkOpenableUrl('https://example.com/auth').ok).toBe(true);
    expect(checkOpenableUrl('http://localhost:8080/cb').ok).toBe(true);
    expect(checkOpenableUrl('http://127.0.0.1/').ok).toBe(true);
    expect(checkOpenableUrl('http://[::1]:3000/').ok).toBe(true);
    expect(checkOpenableUrl('http://example.com/')).toMatchObject({ ok: false, reason: expect.stringMatching(/only for this machine/) });
    expect(checkOpenableUrl('javascript:alert(1)')).toMatchObject({ ok: false, reason: expect.stringMatching(/only https addresses are opened, not javascript:/) });
    // The same checks as a sign-in address: no cloud metadata or link-local hosts.
    expect(checkOpenableUrl('https://169.254.169.254/latest/meta-data/').ok).toBe(false);
    expect(checkOpenableUrl('https://metadata.google.internal/').ok).toBe(false);
    expect(checkOpenableUrl('file:///etc/passwd').ok).toBe(false);
    expect(checkOpenableUrl('https://user:pw@example.com/').ok).toBe(false);
    expect(checkOpenableUrl('not a url').ok).toBe(false);
  });
});
