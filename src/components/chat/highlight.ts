import type { createLowlight } from 'lowlight';
import { mergeStyles, type CodePalette, type Style } from './style';
import type { Span } from './text';

/**
 * Syntax highlighting through lowlight (highlight.js grammars), loaded on the first code block so
 * start-up never pays for it. Until it has loaded, code is drawn plain; when it arrives the
 * generation number changes, the transcript re-lays out only the items that contain code, and
 * views subscribed here re-render.
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
let loading: Promise<void> | undefined;
let generation = 0;
const listeners = new Set<() => void>();

/** Starts loading the highlighter (once); resolves when it is ready or failed to load. */
export function loadHighlighter(): Promise<void> {
  loading ??= import('lowlight')
    .then(({ createLowlight, common }) => {
      lowlight = createLowlight(common);
    })
    .catch(() => {
      // Without grammars code stays plain; nothing else depends on it.
    })
    .finally(() => {
      generation++;
      for (const listener of listeners) listener();
    });
  return loading;
}

/** `idle` until the first code block with a language asks for it. */
export function highlighterState(): 'idle' | 'loading' | 'ready' | 'failed' {
  if (lowlight) return 'ready';
  if (!loading) return 'idle';
  return generation > 0 ? 'failed' : 'loading';
}

/** Changes once, when the highlighter has loaded (or failed to). */
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

export interface HighlightResult {
  spans: Span[];
  /** True when colours were applied (the highlighter was loaded and knew the language). */
  highlighted: boolean;
  /** True when the result would change once the highlighter has loaded. */
  waiting: boolean;
}

/**
 * Highlights one code block. Unknown or missing languages stay plain; while the highlighter is
 * still loading the block is plain and `waiting` is set (loading is started here on first use).
 */
export function highlightCode(code: string, info: string | undefined, palette: CodePalette): HighlightResult {
  const plain = { spans: [{ text: code }], highlighted: false, waiting: false };
  const language = languageOf(info);
  if (!language || Object.keys(palette).length === 0) return plain;
  if (!lowlight) {
    if (!loading) void loadHighlighter();
    // A failed load leaves `lowlight` unset but `generation` moved on: then there is nothing to wait for.
    return { ...plain, waiting: generation === 0 };
  }
  if (!lowlight.registered(language)) return plain;
  try {
    const tree = lowlight.highlight(language, code) as unknown as HastNode;
    const spans: Span[] = [];
    flatten(tree, undefined, palette, spans);
    return { spans, highlighted: true, waiting: false };
  } catch {
    return plain;
  }
}
