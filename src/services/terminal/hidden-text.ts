import type { McpToolInfo } from '../mcp/index';

// Text a server writes for the model to read (tool names, titles, descriptions, every string in a
// schema) can carry instructions the user never sees: Unicode tag characters spell ASCII
// invisibly, zero-width and bidi characters hide or reorder words, runs of variation selectors
// encode bytes, control characters hide the rest of a line. Such characters are flagged where the
// user looks at a tool (sidebar, tool details, `:mcp tool`) and removed from what the model
// receives (docs/ARCHITECTURE.md, Security invariants 1 and 9). Display escaping is sanitize.ts.

// C0 controls but tab and line feed (a CR of a CRLF is allowed for below), DEL, C1 controls.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/u;
// Direction marks, embeddings, overrides and isolates.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
// Invisible characters prose does not need: soft hyphen, Mongolian/Khmer invisibles, zero-width
// space, word joiner, invisible operators, deprecated format characters, Hangul fillers, BOM,
// interlinear annotation marks, tag characters, combining grapheme joiner.
const INVISIBLE = /[\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b\u2060-\u2064\u206a-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}]/u;
// Variation selectors: VS15/VS16 choose text or emoji style for the character before them, and
// ZWJ/ZWNJ join emoji and Indic letters; one after a non-ASCII character is ordinary text. Runs of
// them, or any other selector (VS1–VS14, the 240 ideographic ones), is how bytes are hidden.
const SELECTOR = /[\ufe00-\ufe0f]|[\u{e0100}-\u{e01ef}]/u;
const JOINER = /[\u200c\u200d]/u;
const STYLE_SELECTOR = /[\ufe0e\ufe0f]/u;

/** `U+200B` */
export function codePointLabel(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Whether the character at this place of `chars` is hidden text (see above). */
function isHidden(chars: readonly string[], index: number): boolean {
  const char = chars[index]!;
  if (char === '\r') return chars[index + 1] !== '\n';
  if (CONTROL.test(char) || BIDI.test(char) || INVISIBLE.test(char)) return true;
  const joiner = JOINER.test(char);
  const selector = SELECTOR.test(char);
  if (!joiner && !selector) return false;
  if (selector && !STYLE_SELECTOR.test(char)) return true;
  const before = chars[index - 1];
  // Attached to a visible non-ASCII character (an emoji, a letter of a script that needs it), once.
  return before === undefined || before.codePointAt(0)! < 0x80 || SELECTOR.test(before) || JOINER.test(before) || /\s/u.test(before);
}

const QUICK = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** The code points of hidden characters in `text` (each once, in order), or an empty list. */
export function hiddenCharacters(text: string): number[] {
  if (!QUICK.test(text)) return [];
  const chars = [...text];
  const found = new Set<number>();
  chars.forEach((_, index) => {
    if (isHidden(chars, index)) found.add(chars[index]!.codePointAt(0)!);
  });
  return [...found];
}

/** `text` without its hidden characters (what the model receives). */
export function stripHidden(text: string): string {
  if (!QUICK.test(text)) return text;
  const chars = [...text];
  return chars.filter((_, index) => !isHidden(chars, index)).join('');
}

/** Every string of a JSON value (keys too), with where it is: `inputSchema.properties.path.description`. */
function* stringsOf(value: unknown, where: string, depth = 0): Generator<[string, string]> {
  if (typeof value === 'string') yield [where, value];
  else if (depth > 64 || value === null || typeof value !== 'object') return;
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* stringsOf(item, `${where}[${index}]`, depth + 1);
  else {
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      yield [`${where} (a key)`, key];
      yield* stringsOf(item, `${where}.${key}`, depth + 1);
    }
  }
}

/** Most places and code points listed in one finding line. */
const MAX_LISTED = 6;

/**
 * One line per part of the tool's definition that carries hidden characters: `description:
 * U+200B, U+E0041 (removed from what the model receives)`. Empty when there are none.
 */
export function hiddenTextFindings(tool: McpToolInfo): string[] {
  const places = new Map<string, Set<number>>();
  const spelled = new Map<string, string>();
  const note = (place: string, text: string) => {
    const codes = hiddenCharacters(text);
    if (codes.length === 0) return;
    const set = places.get(place) ?? new Set<number>();
    for (const code of codes) set.add(code);
    places.set(place, set);
    const tagText = tagSpelling(text);
    if (tagText) spelled.set(place, `${spelled.get(place) ?? ''}${tagText}`);
  };
  note('name', tool.name);
  if (tool.title !== undefined) note('title', tool.title);
  if (tool.description !== undefined) note('description', tool.description);
  for (const [where, text] of stringsOf(tool.inputSchema, 'input schema')) note(where.replace(/ \(a key\)$/, ''), text);
  for (const [where, text] of stringsOf(tool.annotations, 'annotations')) note(where.replace(/ \(a key\)$/, ''), text);
  const lines = [...places].slice(0, MAX_LISTED).map(([place, codes]) => {
    const listed = [...codes].slice(0, MAX_LISTED).map(codePointLabel);
    const tagText = spelled.get(place);
    // What tag characters spell is what the model would have read: the user sees it too.
    const spelling = tagText ? `; tag characters spell ${JSON.stringify(tagText.length > 80 ? `${tagText.slice(0, 80)}…` : tagText)}` : '';
    return `${place}: ${listed.join(', ')}${codes.size > MAX_LISTED ? ` and ${codes.size - MAX_LISTED} more` : ''}${spelling}`;
  });
  if (places.size > MAX_LISTED) lines.push(`and ${places.size - MAX_LISTED} more places`);
  return lines;
}

/** The ASCII that tag characters (U+E0020–U+E007E) in `text` spell, or an empty string. */
export function tagSpelling(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xe0020 && code <= 0xe007e) out += String.fromCharCode(code - 0xe0000);
  }
  return out;
}

/** A copy of a JSON value with hidden characters removed from every string (keys too). */
export function stripHiddenDeep<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return stripHidden(value) as T;
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => stripHiddenDeep(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  // defineProperty: a key such as `__proto__` stays a plain key.
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    Object.defineProperty(out, stripHidden(key), { value: stripHiddenDeep(item, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out as T;
}
