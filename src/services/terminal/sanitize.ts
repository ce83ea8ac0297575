/**
 * The one place untrusted text is made safe to put on a terminal (docs/ARCHITECTURE.md, Security invariants 1).
 *
 * Model output, tool names, descriptions, arguments, results, server names and stderr can carry
 * escape sequences that would move the cursor, rewrite the screen, set the clipboard (OSC 52),
 * change the window title or hide text. Every such string passes through here before layout; our
 * own styling is added afterwards. The original text is never modified in place: the model still
 * receives exactly what the server or model sent.
 */

export interface SanitizeOptions {
  /** `keep`: newlines stay line breaks (chat text, results). `escape`: shown as `\n` (names, one-line views). */
  newlines?: 'keep' | 'escape';
  /** `spaces`: a tab becomes spaces to the next multiple of 4 columns of its line. `escape`: shown as `\t`. */
  tabs?: 'spaces' | 'escape';
  /**
   * `mark`: every invisible or direction-changing format character is shown as `<U+XXXX>`
   * (approval, CMD and name views, where hidden text would change what the user agrees to).
   * `text`: direction controls, zero-width spaces, BOMs, soft hyphens and tag characters are
   * marked; the joiners and variation selectors emoji and scripts need (ZWJ, ZWNJ, VS16, a
   * subdivision flag's tags) stay, so ordinary prose renders normally.
   */
  invisibles?: 'mark' | 'text';
}

// C0 controls except \n and \t (handled separately), DEL, C1 controls.
const CONTROL = '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f';
// Direction overrides/embeddings/isolates and marks: can reorder what a line appears to say.
const BIDI = '\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
// Invisible characters prose does not need and hidden text is made of (zero-width space, word
// joiner, invisible operators, BOM, soft hyphen, fillers, interlinear annotations). Terminals also
// disagree about their width, which throws a layout off: marked in every view.
const HIDDEN = '\\u00ad\\u17b4\\u17b5\\u180e\\u200b\\u2060-\\u2064\\u206a-\\u206f\\u3164\\ufeff\\uffa0\\ufff9-\\ufffb';
// Joiners and selectors that scripts and emoji need: kept in prose, marked in strict views.
const JOINERS = '\\u034f\\u115f\\u1160\\u180b-\\u180d\\u180f\\u200c\\u200d\\ufe00-\\ufe0f';
// Unicode tag characters (U+E0000–U+E007F) can smuggle invisible ASCII.
const TAGS = '\\u{e0000}-\\u{e007f}';
// Ideographic variation selectors.
const ASTRAL_JOINERS = '\\u{e0100}-\\u{e01ef}';
const INVISIBLE = HIDDEN + JOINERS;
const ASTRAL_INVISIBLE = TAGS + ASTRAL_JOINERS;

const NEEDS_WORK_TEXT = new RegExp(`[${CONTROL}${BIDI}${HIDDEN}\\t\\r\\ud800-\\udfff]|[${TAGS}]`, 'u');
const NEEDS_WORK_MARK = new RegExp(`[${CONTROL}${BIDI}${INVISIBLE}\\t\\r\\n\\ud800-\\udfff]|[${ASTRAL_INVISIBLE}]`, 'u');

const CONTROL_RE = new RegExp(`[${CONTROL}]`, 'u');
const BIDI_RE = new RegExp(`[${BIDI}]`, 'u');
const HIDDEN_RE = new RegExp(`[${HIDDEN}]|[${TAGS}]`, 'u');
const INVISIBLE_RE = new RegExp(`[${INVISIBLE}]|[${ASTRAL_INVISIBLE}]`, 'u');
// A subdivision flag (🏴 + tag letters + cancel tag, e.g. Scotland's) is the one honest use of tags.
const FLAG_SEQUENCE = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/uy;

function hex2(code: number): string {
  return code.toString(16).padStart(2, '0');
}

function codePointMarker(code: number): string {
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** Returns text that is safe to write to a terminal. */
export function sanitize(text: string, options: SanitizeOptions = {}): string {
  const newlines = options.newlines ?? 'keep';
  const tabs = options.tabs ?? 'spaces';
  const invisibles = options.invisibles ?? 'text';
  const probe = invisibles === 'mark' || newlines === 'escape' ? NEEDS_WORK_MARK : NEEDS_WORK_TEXT;
  // Fast path: the streaming chat view calls this for every frame of a growing message.
  if (!probe.test(text)) return text;

  // Lone surrogates (from a broken stream or a hostile server) would become garbage bytes.
  const wellFormed = text.toWellFormed();
  let out = '';
  let column = 0;
  for (let i = 0; i < wellFormed.length; i++) {
    const code = wellFormed.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(code);
    if (code > 0xffff) i++;

    if (char === '\n') {
      if (newlines === 'keep') {
        out += '\n';
        column = 0;
      } else {
        out += '\\n';
        column += 2;
      }
      continue;
    }
    if (char === '\r') {
      // CRLF is an ordinary line end; a lone CR would return the cursor and overwrite the line.
      if (wellFormed[i + 1] === '\n') continue;
      out += '\\r';
      column += 2;
      continue;
    }
    if (char === '\t') {
      if (tabs === 'escape') {
        out += '\\t';
        column += 2;
      } else {
        const width = 4 - (column % 4);
        out += ' '.repeat(width);
        column += width;
      }
      continue;
    }
    if (CONTROL_RE.test(char)) {
      out += `\\x${hex2(code)}`;
      column += 4;
      continue;
    }
    if (code === 0x1f3f4 && invisibles === 'text') {
      FLAG_SEQUENCE.lastIndex = i - 1;
      const flag = FLAG_SEQUENCE.exec(wellFormed);
      if (flag) {
        out += flag[0];
        column += 2;
        i += flag[0].length - 2;
        continue;
      }
    }
    if (BIDI_RE.test(char) || HIDDEN_RE.test(char) || (invisibles === 'mark' && INVISIBLE_RE.test(char))) {
      const marker = codePointMarker(code);
      out += marker;
      column += marker.length;
      continue;
    }
    out += char;
    column += 1;
  }
  return out;
}

/** For names, aliases, URLs and other one-line labels: nothing hidden, nothing multi-line. */
export function sanitizeLabel(text: string): string {
  return sanitize(text, { newlines: 'escape', tabs: 'escape', invisibles: 'mark' });
}

/** For approval and CMD views: line breaks kept, everything invisible made visible. */
export function sanitizeStrict(text: string): string {
  return sanitize(text, { newlines: 'keep', tabs: 'escape', invisibles: 'mark' });
}

// What JSON.stringify leaves raw but a terminal may act on or hide: DEL and C1 controls, bidi
// controls, invisible format characters, line/paragraph separators, tag characters.
const JSON_UNSAFE = new RegExp(`[\\u007f-\\u009f${BIDI}${INVISIBLE}\\u2028\\u2029]|[${ASTRAL_INVISIBLE}]`, 'gu');

/**
 * JSON for output that may land on a terminal (`--output-format json`, `mcp … --json`): the same
 * value as JSON.stringify gives, with every character a terminal could obey or hide written as a
 * `\uXXXX` escape. Lossless: a JSON parser reads back exactly the original strings.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  const json = JSON.stringify(value, null, space) ?? 'null';
  return json.replace(JSON_UNSAFE, (char) => {
    let out = '';
    for (let i = 0; i < char.length; i++) out += `\\u${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return out;
  });
}
