// The one redactor (docs/ARCHITECTURE.md, Security invariants 6): every text built from a server's, a tool's or the model's words
// that may be shown or logged passes through here. One marker everywhere, `[redacted]`: it says what
// happened in words, and unlike `***` it is not markdown (a lone `***` line is a rule, `***x***` is
// bold italics), so a redacted answer still renders as what it is.

export const REDACTED = '[redacted]';

/** Shorter values would mask ordinary words; no real key or token is this short. */
export const MIN_SECRET_LENGTH = 6;

/**
 * Credentials recognised by their shape, for texts that may hold secrets nobody configured (a tool
 * result echoing an Authorization header, an error quoting a key). The scheme word stays visible.
 */
const CREDENTIAL_SHAPES: RegExp[] = [
  /\b(Bearer|DPoP)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // OpenAI / OpenRouter / Anthropic style keys.
  /\bsk-[A-Za-z0-9_-]{16,}/g,
];

export type Redactor = (text: string) => string;

/** The values worth replacing: long enough, once each, longest first (a secret that contains another is replaced whole). */
export function secretValues(secrets: Iterable<string | undefined>): string[] {
  const values = new Set<string>();
  for (const value of secrets) if (typeof value === 'string' && value.length >= MIN_SECRET_LENGTH) values.add(value);
  return [...values].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every known secret value in `text` by the marker. With `shapes`, credentials recognised
 * by their shape (bearer tokens, `sk-` keys) are masked too; without, only the given values are
 * touched, which is what text that must keep its exact length and content otherwise needs (the
 * streamed answer, tool-call arguments).
 */
export function redact(text: string, secrets: Iterable<string | undefined>, options: { shapes?: boolean } = {}): string {
  let out = text;
  for (const value of secretValues(secrets)) if (out.includes(value)) out = out.split(value).join(REDACTED);
  if (options.shapes) {
    for (const shape of CREDENTIAL_SHAPES) {
      out = out.replace(shape, (_match, scheme?: string, space?: string) => (typeof scheme === 'string' ? `${scheme}${space}${REDACTED}` : REDACTED));
    }
  }
  return out;
}

/** A redactor for a fixed set of secrets that also masks credential shapes (the session log's). */
export function createRedactor(secrets: Iterable<string | undefined>): Redactor {
  const values = secretValues(secrets);
  return (text) => redact(text, values, { shapes: true });
}

/** Every string field of a value, redacted (the value is copied, never changed in place). */
export function redactDeep<T>(value: T, redactText: Redactor): T {
  if (typeof value === 'string') return redactText(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redactText)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, redactText);
    return out as T;
  }
  return value;
}
