// Well-known dangerous command shapes, flagged in the command frame and in tool arguments
// (README.md, "Safety"). The list is short on purpose and documented there: it catches the shapes
// that are pasted from install pages and prompt-injection payloads, nothing more. A command that
// matches nothing here is not "safe"; nothing in aish-tui ever says so.

export interface CommandShape {
  /** What the command does, said in the frame: "downloads a script and runs it". */
  warning: string;
  test: RegExp;
  /** A cheap test that must pass first (long texts: the shape's own test backtracks at every word). */
  when?: RegExp;
}

const SHELL = String.raw`(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+(?:\S+=\S*\s+)*)?(?:/usr)?(?:/bin/)?(?:ba|z|k|da|fi|c|tc|mk)?sh\b`;
const INTERPRETER = String.raw`(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|lua)\b`;
const FETCH = String.raw`(?:curl|wget|fetch|aria2c|Invoke-WebRequest|iwr|irm|Invoke-RestMethod)\b`;
const DISK = String.raw`/dev/(?:sd[a-z]|nvme\d|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|disk\d|mapper/)`;
/** `/`, `/*`, `~`, `~/`, `$HOME`, `${HOME}`, `*` or `.` as a whole word: the roots people lose. */
const ROOT_TARGET = String.raw`(?:/|/\*|~/?|~/\*|\$HOME/?|\$\{HOME\}/?|\*|\.\.?/?)(?=$|[\s;&|)])`;
const RECURSIVE_FLAG = String.raw`(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)`;

export const COMMAND_SHAPES: readonly CommandShape[] = [
  { warning: 'downloads a script and runs it', test: new RegExp(String.raw`${FETCH}[^|;&]*\|\s*(?:${SHELL}|${INTERPRETER}|iex\b|Invoke-Expression\b)`, 'i') },
  { warning: 'runs what a download prints', test: new RegExp(String.raw`(?:\$\(|\x60|<\()\s*${FETCH}`, 'i') },
  { warning: 'decodes hidden text and runs it', test: new RegExp(String.raw`(?:base64|base32|xxd|openssl\s+(?:enc|base64))\b[^|;&]*(?:-d\b|--decode|-r\b)[^|;&]*\|\s*(?:${SHELL}|${INTERPRETER})`, 'i') },
  { warning: 'pipes text into a shell', test: new RegExp(String.raw`\|\s*${SHELL}(?!\S)`, 'i') },
  { warning: 'an interpreter downloads and runs code', test: new RegExp(String.raw`${INTERPRETER}\s+(?:-\S+\s+)*-[ce]\b.*(?:urllib|urlopen|requests\.get|http\.get|https\.get|fetch\(|LWP|Net::HTTP|open-uri|socket)`, 'i') },
  { warning: 'deletes recursively from / or ~', test: new RegExp(String.raw`\brm\s+(?:-\S+\s+)*${RECURSIVE_FLAG}\s+(?:-\S+\s+)*(?:\S+\s+)*?${ROOT_TARGET}`) },
  { warning: 'formats a file system', test: /\b(?:mkfs(?:\.\w+)?|mke2fs|mkswap|wipefs)\b/ },
  { warning: 'writes to a raw disk', test: new RegExp(String.raw`\bdd\b[^;&|]*\bof=${DISK}|>\s*${DISK}|\b(?:shred|blkdiscard)\b[^;&|]*${DISK}`) },
  { warning: 'a fork bomb', when: /\(\)\s*\{/, test: /([\w:]+)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}\s*;?\s*\1/ },
  { warning: 'changes permissions or owner recursively from / or ~', test: new RegExp(String.raw`\bch(?:mod|own|grp)\s+(?:-\S+\s+)*${RECURSIVE_FLAG}\s+(?:-\S+\s+)*\S+\s+${ROOT_TARGET}`) },
  { warning: 'force-pushes (rewrites the remote history)', test: /\bgit\s+(?:-\S+\s+)*push\b[^;&|]*(?:\s--force(?:-with-lease)?\b|\s-[a-zA-Z]*f\b|\s\+\S)/ },
];

/** The warnings for a command, in the list's order; empty when no listed shape matches. */
export function commandWarnings(command: string): string[] {
  const out: string[] = [];
  for (const shape of COMMAND_SHAPES) {
    if ((!shape.when || shape.when.test(command)) && shape.test.test(command) && !out.includes(shape.warning)) out.push(shape.warning);
  }
  // "pipes text into a shell" says less than the download warnings that already cover it.
  if (out.length > 1 && out.includes('pipes text into a shell') && out.some((warning) => warning.includes('runs'))) {
    return out.filter((warning) => warning !== 'pipes text into a shell');
  }
  return out;
}

/**
 * Characters that make a command look different from what runs: C0 controls but tab (a carriage
 * return or backspace can hide a part of the line on a terminal), DEL, C1 controls, bidi controls,
 * zero-width and other invisible format characters, line separators, tag characters. Returned as
 * escapes (`\r`, `<U+202E>`), each once.
 */
export function hiddenCharacters(text: string, options: { lineBreaks?: boolean } = {}): string[] {
  const found = new Set<string>();
  // Text arguments (file contents) may hold line breaks, Windows ones too; a lone CR may not.
  const checked = options.lineBreaks ? text.replace(/\r\n/g, '\n') : text;
  for (const match of checked.matchAll(HIDDEN)) {
    if (options.lineBreaks && match[0] === '\n') continue;
    found.add(escapeChar(match[0]));
  }
  return [...found];
}

// \p{Cf} covers bidi controls (U+202A-202E, U+2066-2069, U+200E-200F, U+061C), zero-width
// characters (U+200B-200D, U+2060-2064), U+FEFF, soft hyphen and the tag characters.
const HIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u115f\u1160\u3164\uffa0\u034f\u180b-\u180e]|\p{Cf}/gu;

const NAMED: Record<string, string> = { '\r': '\\r', '\n': '\\n', '\b': '\\b', '\x1b': '\\x1b', '\x00': '\\0', '\x07': '\\a', '\f': '\\f', '\v': '\\v' };

export function escapeChar(char: string): string {
  const named = NAMED[char];
  if (named) return named;
  const code = char.codePointAt(0)!;
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

/** The command with those characters removed: what the edit line starts from. */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}

/** What the command frame needs to know about a proposed command. */
export interface CommandCheck {
  /** Dangerous shapes, shown as warnings. */
  warnings?: string[];
  /** Set when the command cannot run with one key (it holds hidden characters): why. */
  mustEdit?: string;
  /** What the edit line starts from when `mustEdit` is set (the hidden characters removed). */
  edited?: string;
}

export function checkCommand(command: string): CommandCheck {
  const warnings = commandWarnings(command);
  const hidden = hiddenCharacters(command);
  return {
    ...(warnings.length > 0 ? { warnings } : {}),
    ...(hidden.length > 0 ? { mustEdit: `it holds control or invisible characters (${hidden.slice(0, 6).join(' ')})`, edited: withoutHiddenCharacters(command) } : {}),
  };
}
