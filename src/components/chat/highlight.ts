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

function flatten(node: HastNode, style: Style | undefined, palette: CodePalette, out: Span[]): void {
  if (node.type === 'text') {
    const value = (node as HastText).value;
    if (value.length > 0) out.push({ text: value, style });
    return;
  }
  const element = node as HastElement;
  const inner = node.type === 'element' ? mergeStyles(style, scopeStyle(element.properties?.className, palette)) : style;
  for (const child of element.children ?? []) flatten(child, inner, palette, out);
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
    const tree = lowlight.highlight(grammar, code) as unknown as HastNode;
    const spans: Span[] = [];
    flatten(tree, undefined, palette, spans);
    remember(palette, key, spans);
    return { spans, highlighted: true, waiting: false };
  } catch {
    return plain;
  }
}
