import { sanitizeLabel } from './sanitize';
import { codePointLabel } from './hidden-text';

// A tool or server name is how the user knows what they allow. `read_fіle` with a Cyrillic `і`
// (U+0456), `ｒead` in fullwidth letters or `lοad` with a Greek omicron look like the ASCII names
// they imitate. Names are shown with every non-ASCII character as its code point and a badge
// that says why (docs/ARCHITECTURE.md, Security invariants 3): in the approval frame, the sidebar
// and the tool details. Server aliases are ASCII by construction (config/schema.ts), tool names
// come from servers and may hold anything.

export const LOOK_ALIKE_BADGE = '▲ non-ASCII';

const SCRIPTS: Array<[string, RegExp]> = [
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Latin', /\p{Script=Latin}/u],
];

/** `Cyrillic`, `fullwidth`, … : what kind of character this is, in a word. */
function kindOf(char: string): string {
  const code = char.codePointAt(0)!;
  if (code >= 0xff01 && code <= 0xff5e) return 'fullwidth';
  if (code >= 0x1d400 && code <= 0x1d7ff) return 'mathematical';
  for (const [name, pattern] of SCRIPTS) if (pattern.test(char)) return name;
  if (/\p{L}/u.test(char)) return 'letter';
  if (/\p{N}/u.test(char)) return 'digit';
  return 'symbol';
}

export interface NonAsciiChar {
  char: string;
  /** `U+0456` */
  code: string;
  /** `Cyrillic`, `Greek`, `fullwidth`, … */
  kind: string;
}

/**
 * Whether a character can pass for an ASCII one: letters of Latin-like scripts (Cyrillic, Greek,
 * Armenian, Cherokee, accented Latin), fullwidth and mathematical forms, combining marks. Names in
 * other scripts (Japanese, emoji) are shown as they are: they imitate no ASCII name.
 */
function imitatesAscii(char: string): boolean {
  return /\p{M}/u.test(char) || !['letter', 'digit', 'symbol'].includes(kindOf(char));
}

/** The distinct characters of a name that may imitate ASCII ones, in order (invisible ones are the sanitizer's). */
export function nonAsciiChars(name: string): NonAsciiChar[] {
  const seen = new Map<string, NonAsciiChar>();
  for (const char of name) {
    if (char.codePointAt(0)! < 0x80 || seen.has(char) || !imitatesAscii(char)) continue;
    seen.set(char, { char, code: codePointLabel(char.codePointAt(0)!), kind: kindOf(char) });
  }
  return [...seen.values()];
}

/**
 * A name for display: one line, escaped like every label, and every non-ASCII character shown as
 * its code point (`read_f<U+0456>le`), so it cannot pass for the ASCII name it imitates.
 */
export function sanitizeName(name: string): string {
  const label = sanitizeLabel(name);
  // eslint-disable-next-line no-control-regex
  if (!/[^\x00-\x7f]/.test(label)) return label;
  let out = '';
  for (const char of label) out += char.codePointAt(0)! < 0x80 || !imitatesAscii(char) ? char : `<${codePointLabel(char.codePointAt(0)!)}>`;
  return out;
}

/** `і U+0456 Cyrillic, ο U+03BF Greek` (at most `max`), or undefined for an ASCII name. */
export function lookAlikeNote(name: string, max = 4): string | undefined {
  const chars = nonAsciiChars(name);
  if (chars.length === 0) return undefined;
  const shown = chars.slice(0, max).map((entry) => `${sanitizeLabel(entry.char)} ${entry.code} ${entry.kind}`);
  return chars.length > max ? `${shown.join(', ')} and ${chars.length - max} more` : shown.join(', ');
}
