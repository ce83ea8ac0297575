import type { Theme } from '../terminal/theme';

/**
 * A text style as the transcript uses it. Lines are stored as finished strings with SGR escapes
 * (one serialization per layout, none per frame), so the only escapes that ever reach the terminal
 * from the chat view are the ones built here.
 */
export interface Style {
  color?: string;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  inverse?: boolean;
}

const NAMED_FOREGROUND: Record<string, number> = {
  black: 30,
  red: 31,
  green: 32,
  yellow: 33,
  blue: 34,
  magenta: 35,
  cyan: 36,
  white: 37,
  gray: 90,
  grey: 90,
  blackBright: 90,
  redBright: 91,
  greenBright: 92,
  yellowBright: 93,
  blueBright: 94,
  magentaBright: 95,
  cyanBright: 96,
  whiteBright: 97,
};

const HEX = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i;
const ANSI256 = /^ansi256\(\s*(\d{1,3})\s*\)$/;

/** The SGR parameters for a theme colour name, `#rrggbb` or `ansi256(n)`; undefined for anything else. */
function foregroundCode(color: string): string | undefined {
  const named = NAMED_FOREGROUND[color];
  if (named !== undefined) return String(named);
  const hex = HEX.exec(color);
  if (hex) return `38;2;${parseInt(hex[1]!, 16)};${parseInt(hex[2]!, 16)};${parseInt(hex[3]!, 16)}`;
  const indexed = ANSI256.exec(color);
  if (indexed && Number(indexed[1]) <= 255) return `38;5;${indexed[1]}`;
  return undefined;
}

const sgr = (code: string) => `\x1b[${code}m`;

export interface StyleCodes {
  open: string;
  close: string;
}

const NO_CODES: StyleCodes = { open: '', close: '' };
const codeCache = new Map<string, StyleCodes>();

function styleKey(style: Style): string {
  return `${style.color ?? ''}|${style.bold ? 1 : 0}${style.dim ? 1 : 0}${style.italic ? 1 : 0}${style.underline ? 1 : 0}${style.strike ? 1 : 0}${style.inverse ? 1 : 0}`;
}

/** Opening and closing escapes for a style. One sequence per attribute, closed attribute by attribute. */
export function styleCodes(style: Style | undefined): StyleCodes {
  if (!style) return NO_CODES;
  const key = styleKey(style);
  const cached = codeCache.get(key);
  if (cached) return cached;
  let open = '';
  let close = '';
  if (style.bold) {
    open += sgr('1');
    close = sgr('22') + close;
  }
  if (style.dim) {
    open += sgr('2');
    if (!style.bold) close = sgr('22') + close;
  }
  if (style.italic) {
    open += sgr('3');
    close = sgr('23') + close;
  }
  if (style.underline) {
    open += sgr('4');
    close = sgr('24') + close;
  }
  if (style.inverse) {
    open += sgr('7');
    close = sgr('27') + close;
  }
  if (style.strike) {
    open += sgr('9');
    close = sgr('29') + close;
  }
  const fg = style.color ? foregroundCode(style.color) : undefined;
  if (fg) {
    open += sgr(fg);
    close = sgr('39') + close;
  }
  const codes = { open, close };
  if (codeCache.size > 512) codeCache.clear();
  codeCache.set(key, codes);
  return codes;
}

export function sameStyle(a: Style | undefined, b: Style | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return styleKey(a ?? {}) === styleKey(b ?? {});
  return styleKey(a) === styleKey(b);
}

/** Nested inline styles (a link inside strong text) combine; the inner one wins on conflicts. */
export function mergeStyles(outer: Style | undefined, inner: Style | undefined): Style | undefined {
  if (!outer) return inner;
  if (!inner) return outer;
  return { ...outer, ...inner };
}

/** Syntax-highlighting colours by highlight.js scope; empty under NO_COLOR. */
export type CodePalette = Record<string, Style>;

/** Every style the transcript uses, derived from the theme once. */
export interface ChatStyles {
  color: boolean;
  userPrefix: Style;
  userText?: Style;
  reasoning: Style;
  reasoningHeader: Style;
  muted: Style;
  heading: [Style, Style, Style];
  strong: Style;
  em: Style;
  del: Style;
  codespan: Style;
  link: Style;
  url: Style;
  quoteBar: Style;
  listMarker: Style;
  rule: Style;
  tableBorder: Style;
  tableHeader: Style;
  info: Style;
  warn: Style;
  error: Style;
  ok: Style;
  accent: Style;
  code: CodePalette;
}

const stylesByTheme = new WeakMap<Theme, ChatStyles>();

export function chatStyles(theme: Theme): ChatStyles {
  const cached = stylesByTheme.get(theme);
  if (cached) return cached;
  const c = (color: string | undefined): Style => (theme.color && color ? { color } : {});
  const styles: ChatStyles = {
    color: theme.color,
    userPrefix: { ...c(theme.user), bold: true },
    userText: theme.color ? undefined : { bold: true },
    reasoning: { ...c(theme.muted), dim: !theme.color, italic: true },
    reasoningHeader: { ...c(theme.muted), dim: !theme.color },
    muted: theme.color ? c(theme.muted) : { dim: true },
    heading: [
      { ...c(theme.accent), bold: true, underline: true },
      { ...c(theme.accent), bold: true },
      { bold: true },
    ],
    strong: { bold: true },
    em: { italic: true },
    del: { strike: true },
    codespan: theme.color ? c(theme.code ?? 'yellow') : {},
    link: { ...c(theme.accent), underline: true },
    url: theme.color ? c(theme.muted) : { dim: true },
    quoteBar: theme.color ? c(theme.muted) : { dim: true },
    listMarker: c(theme.accent),
    rule: theme.color ? c(theme.muted) : { dim: true },
    tableBorder: theme.color ? c(theme.muted) : { dim: true },
    tableHeader: { ...c(theme.accent), bold: true },
    info: c(theme.info),
    warn: c(theme.warn),
    error: c(theme.error),
    ok: c(theme.ok),
    accent: c(theme.accent),
    code: theme.color ? (theme.background === 'light' ? LIGHT_CODE_PALETTE : COLOUR_CODE_PALETTE) : {},
  };
  stylesByTheme.set(theme, styles);
  return styles;
}

const COLOUR_CODE_PALETTE: CodePalette = {
  keyword: { color: 'magenta' },
  'selector-tag': { color: 'magenta' },
  'selector-class': { color: 'yellow' },
  'selector-id': { color: 'yellow' },
  built_in: { color: 'cyan' },
  type: { color: 'cyan' },
  class: { color: 'cyan' },
  literal: { color: 'blueBright' },
  number: { color: 'yellow' },
  string: { color: 'green' },
  char: { color: 'green' },
  regexp: { color: 'red' },
  symbol: { color: 'red' },
  comment: { color: 'gray', italic: true },
  doc: { color: 'gray', italic: true },
  quote: { color: 'gray', italic: true },
  meta: { color: 'gray' },
  'meta-keyword': { color: 'magenta' },
  'meta-string': { color: 'green' },
  title: { color: 'blue' },
  section: { color: 'blue', bold: true },
  name: { color: 'blue' },
  tag: { color: 'gray' },
  attr: { color: 'cyan' },
  attribute: { color: 'cyan' },
  property: { color: 'cyan' },
  variable: { color: 'red' },
  'template-variable': { color: 'red' },
  params: {},
  bullet: { color: 'yellow' },
  link: { color: 'blue', underline: true },
  addition: { color: 'green' },
  deletion: { color: 'red' },
  emphasis: { italic: true },
  strong: { bold: true },
};

/** The same palette for a light background: yellow, cyan and bright blue are unreadable on white. */
const ON_LIGHT: Readonly<Record<string, string>> = { yellow: '#9a6700', cyan: '#0a6a8a', blueBright: '#0550ae', gray: '#6e7781', green: '#1a7f37' };
const LIGHT_CODE_PALETTE: CodePalette = Object.fromEntries(
  Object.entries(COLOUR_CODE_PALETTE).map(([kind, style]) => [kind, style.color && ON_LIGHT[style.color] ? { ...style, color: ON_LIGHT[style.color] } : style]),
) as CodePalette;
