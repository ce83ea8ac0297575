import { describe, expect, it } from 'vitest';
import { createRedactor, MIN_SECRET_LENGTH, REDACTED, redact, redactDeep, secretValues } from '../../../src/services/shared/redact';

describe('the one redactor', () => {
  it('uses one marker, [redacted], that is not markdown', () => {
    expect(REDACTED).toBe('[redacted]');
  });

  it('replaces every occurrence of a known value and leaves values too short to be keys alone', () => {
    expect(redact('key sk-abc123456, again sk-abc123456', ['sk-abc123456'])).toBe(`key ${REDACTED}, again ${REDACTED}`);
    expect(redact('a b c', ['a', 'x'.repeat(MIN_SECRET_LENGTH - 1)])).toBe('a b c');
  });

  it('replaces a secret that contains another whole, whatever order they were given in', () => {
    expect(redact('token abcdef-123456', ['abcdef', 'abcdef-123456'])).toBe(`token ${REDACTED}`);
    expect(secretValues(['abcdef', undefined, 'abcdef-123456', 'abcdef', 'short'])).toEqual(['abcdef-123456', 'abcdef']);
  });

  it('masks credential shapes only when asked, keeping the scheme word', () => {
    const text = 'Authorization: Bearer abcdefghijkl; DPoP zyxwvutsrq; key sk-0123456789abcdefXYZ';
    expect(redact(text, [])).toBe(text);
    const masked = redact(text, [], { shapes: true });
    expect(masked).toBe(`Authorization: Bearer ${REDACTED}; DPoP ${REDACTED}; key ${REDACTED}`);
    expect(masked).not.toContain('abcdefghijkl');
    expect(masked).not.toContain('zyxwvutsrq');
    expect(masked).not.toContain('sk-0123456789');
  });

  it('createRedactor masks known values and shapes; redactDeep copies every string field', () => {
    const redactor = createRedactor(['my-configured-secret', undefined]);
    const value = { a: 'x my-configured-secret y', list: ['Bearer abcdefghijkl', 3], nested: { ok: true } };
    const out = redactDeep(value, redactor);
    expect(out).toEqual({ a: `x ${REDACTED} y`, list: [`Bearer ${REDACTED}`, 3], nested: { ok: true } });
    expect(value.a).toBe('x my-configured-secret y');
  });
});
