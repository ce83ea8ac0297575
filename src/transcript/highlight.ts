import type { createLowlight } from 'lowlight';
import { GRAMMARS, grammarFor, grammarsFor, type GrammarName } from './grammars';
import { mergeStyles, type CodePalette, type Style } from './style';
import type { Span } from './text';

/**
 * Syntax highlighting through lowlight (highlight.js grammars), loaded on the first code block so
 * start-up never pays for it, and one grammar at a time (see grammars.ts): a block in a language
 * not loaded yet is drawn plain; when its grammar arrives the generation number changes, the
 * transcript re-lays out only the items that were waiting, and views subscribed here re-render.
 */

type Lowlight = ReturnType<typeof createLowlight>;

interface HastText {
  type: 'text';
  value: string;
}
interface HastElement {
  type: 'element';
  properties?: { className?: unknown };
  children: HastNode[];
}
type HastNode = HastText | HastElement | { type: string; children?: HastNode[] };

let lowlight: Lowlight | undefined;
let core: Promise<Lowlight> | undefined;
const grammarLoads = new Map<GrammarName, Promise<void>>();
const failedGrammars = new Set<GrammarName>();
let pending = 0;
let generation = 0;
const listeners = new Set<() => void>();

function loadCore(): Promise<Lowlight> {
  core ??= import('./lowlight').then(({ createLowlight }) => (lowlight = createLowlight()));
  return core;
}

/** Loads one grammar and those it embeds (once); resolves when ready or failed. */
function loadGrammar(name: GrammarName): Promise<void> {
  let load = grammarLoads.get(name);
  if (load) return load;
  pending++;
  const names = grammarsFor(name);
  load = Promise.all([loadCore(), ...names.map((each) => GRAMMARS[each].load())])
    .then(([highlighter, ...modules]) => {
      names.forEach((each, index) => {
        if (!highlighter.registered(each)) highlighter.register(each, modules[index]!.default);
      });
    })
    .catch(() => {
      // Without its grammar the code stays plain; nothing else depends on it.
      failedGrammars.add(name);
    })
    .finally(() => {
      pending--;
      generation++;
      for (const listener of listeners) listener();
    });
  grammarLoads.set(name, load);
  return load;
}

/**
 * Loads the grammars for `languages` (names or aliases), or every grammar when none are given;
 * resolves when they are ready or failed to load.
 */
export async function loadHighlighter(languages?: readonly string[]): Promise<void> {
  const names = languages ? languages.map((language) => grammarFor(language.toLowerCase())).filter((name) => name !== undefined) : (Object.keys(GRAMMARS) as GrammarName[]);
  await Promise.all(names.map(loadGrammar));
}

/** `idle` until the first code block with a known language asks for a grammar. */
export function highlighterState(): 'idle' | 'loading' | 'ready' | 'failed' {
  if (pending > 0) return 'loading';
  if (lowlight) return 'ready';
  return grammarLoads.size === 0 ? 'idle' : 'failed';
}

/** Changes whenever a grammar has loaded (or failed to). */
export function highlighterGeneration(): number {
  return generation;
}

export function subscribeHighlighter(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The grammar name for a fence's info string (`ts title="x"` -> `ts`), if we know the language. */
function languageOf(info: string | undefined): string | undefined {
  const name = info?.trim().split(/\s+/)[0]?.toLowerCase();
  if (!name) return undefined;
  return name;
}

function scopeStyle(classNames: unknown, palette: CodePalette): Style | undefined {
  if (!Array.isArray(classNames)) return undefined;
  for (const className of classNames) {
    if (typeof className !== 'string' || !className.startsWith('hljs-')) continue;
    const scope = className.slice(5);
    const style = palette[scope] ?? palette[scope.split('.')[0]!];
    if (style) return style;
  }
  return undefined;
}

interface Flattened {
  spans: Span[];
  /** Characters so far. */
  length: number;
  /** Offsets just after a newline that lies outside every highlighted scope (see highlightGrowing). */
  lineStarts: number[];
}

function flatten(node: HastNode, style: Style | undefined, palette: CodePalette, out: Flattened, depth: number): void {
  if (node.type === 'text') {
    const value = (node as HastText).value;
    if (value.length === 0) return;
    out.spans.push({ text: value, style });
    if (depth === 0) {
      for (let at = value.indexOf('\n'); at !== -1; at = value.indexOf('\n', at + 1)) out.lineStarts.push(out.length + at + 1);
    }
    out.length += value.length;
    return;
  }
  const element = node as HastElement;
  const isElement = node.type === 'element';
  const inner = isElement ? mergeStyles(style, scopeStyle(element.properties?.className, palette)) : style;
  for (const child of element.children ?? []) flatten(child, inner, palette, out, isElement ? depth + 1 : depth);
}

/**
 * Highlighted blocks by palette, grammar and code: a block is highlighted while it streams, and
 * again whole when the answer ends and is laid out in one piece, or when the width changes.
 * Bounded by count; the oldest go first.
 */
const highlighted = new WeakMap<CodePalette, Map<string, Span[]>>();
const MAX_HIGHLIGHTED = 256;

function remember(palette: CodePalette, key: string, spans: Span[]): void {
  let byKey = highlighted.get(palette);
  if (!byKey) {
    byKey = new Map();
    highlighted.set(palette, byKey);
  }
  byKey.set(key, spans);
  if (byKey.size > MAX_HIGHLIGHTED) byKey.delete(byKey.keys().next().value!);
}

export interface HighlightResult {
  spans: Span[];
  /** True when colours were applied (the highlighter was loaded and knew the language). */
  highlighted: boolean;
  /** True when the result would change once the highlighter has loaded. */
  waiting: boolean;
}

/**
 * Highlights one code block. Unknown or missing languages stay plain; while its grammar is still
 * loading the block is plain and `waiting` is set (loading is started here on first use).
 */
export function highlightCode(code: string, info: string | undefined, palette: CodePalette): HighlightResult {
  const plain = { spans: [{ text: code }], highlighted: false, waiting: false };
  const language = languageOf(info);
  if (!language || Object.keys(palette).length === 0) return plain;
  const grammar = grammarFor(language);
  if (!grammar) return plain;
  if (!lowlight?.registered(grammar)) {
    if (failedGrammars.has(grammar)) return plain;
    void loadGrammar(grammar);
    return { ...plain, waiting: true };
  }
  const key = `${grammar}\u0000${code}`;
  const known = highlighted.get(palette)?.get(key);
  if (known) return { spans: known, highlighted: true, waiting: false };
  try {
    const { spans } = highlightTree(lowlight, grammar, code, palette);
    remember(palette, key, spans);
    return { spans, highlighted: true, waiting: false };
  } catch {
    return plain;
  }
}

function highlightTree(highlighter: Lowlight, grammar: GrammarName, code: string, palette: CodePalette): Flattened {
  const tree = highlighter.highlight(grammar, code) as unknown as HastNode;
  const out: Flattened = { spans: [], length: 0, lineStarts: [] };
  flatten(tree, undefined, palette, out, 0);
  return out;
}

export interface GrowingHighlight extends HighlightResult {
  /**
   * Offsets just after a newline where no highlighted scope (string, comment, parameters…) is
   * open: places where highlighting could start afresh. Every newline when not highlighted.
   */
  lineStarts: number[];
}

/**
 * Highlights a piece of a code block that is still streaming, without keeping the result (the
 * piece changes on every frame). The caller decides where pieces may start (growingCode.ts).
 */
export function highlightGrowing(code: string, info: string | undefined, palette: CodePalette): GrowingHighlight {
  const language = languageOf(info);
  const grammar = language && Object.keys(palette).length > 0 ? grammarFor(language) : undefined;
  if (grammar && lowlight?.registered(grammar)) {
    try {
      const { spans, lineStarts } = highlightTree(lowlight, grammar, code, palette);
      return { spans, lineStarts, highlighted: true, waiting: false };
    } catch {
      // Drawn plain, as highlightCode does.
    }
  }
  const plain = highlightCode(code, info, palette);
  const lineStarts: number[] = [];
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  return { ...plain, lineStarts };
}

/**
 * Languages answers use most, warmed by warmUpHighlighter: the first block in one of them then
 * needs no grammar loading or compiling (compiling TypeScript's grammar takes about 20 ms).
 */
const LIKELY_LANGUAGES: ReadonlyArray<[GrammarName, string]> = [
  ['typescript', 'const a: number = f(`x${1}`); // c'],
  ['python', 'def f(x):\n    return "y"  # c'],
  ['bash', 'echo "$HOME" | grep -v x # c'],
  ['json', '{"a": [1, true, null]}'],
];

/**
 * Loads the likely languages' grammars and compiles each by highlighting a line, one language per
 * turn of the event loop so a keystroke never waits for more than one. For idle time before the
 * first answer; what is already loaded costs nothing.
 */
export async function warmUpHighlighter(): Promise<void> {
  for (const [grammar, sample] of LIKELY_LANGUAGES) {
    await loadGrammar(grammar);
    await new Promise((resolve) => setImmediate(resolve));
    if (lowlight?.registered(grammar)) highlightCode(sample, grammar, WARM_UP_PALETTE);
  }
}
/** Any palette with a scope: the warm-up compiles grammars, its colours are never shown. */
const WARM_UP_PALETTE: CodePalette = { keyword: { bold: true } };
