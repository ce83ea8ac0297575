import { Lexer, type Token, type Tokens } from 'marked';
import { sanitize } from '../services/terminal/sanitize';
import { codeRows, type GrowingCode } from './growingCode';
import { highlightCode, warmUpHighlighter } from './highlight';
import { mergeStyles, type ChatStyles, type Style } from './style';
import { renderTable } from './table';
import { serialize, wrapSpans, type Span } from './text';
import { maxOf, pushAll } from '../services/terminal/rows';

/**
 * Markdown to terminal rows, through marked's lexer (GFM). The input has been sanitized, but the
 * lexer decodes character references (`&#27;` becomes a real ESC), so every string taken out of a
 * token is sanitized again on its way into a span.
 */

export interface MarkdownContext {
  styles: ChatStyles;
  /** Set while rendering when a code block was drawn plain because the highlighter is still loading. */
  waitingForHighlighter: boolean;
  listDepth: number;
  /** Lays out the code block of a streaming answer's last block, reusing its finished lines. */
  growingCode?: GrowingCode;
}

const ENTITY = /&(amp|lt|gt|quot|#39|apos);/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };

/** Text from a token, safe for the terminal. */
function clean(text: string): string {
  return sanitize(text.includes('&') ? text.replace(ENTITY, (_, name: string) => ENTITIES[name] ?? _) : text);
}

function span(text: string, style?: Style): Span {
  return { text: clean(text), style };
}

/** Code spans and blocks are literal in Markdown: `&amp;` there is five characters, not `&`. */
function literal(text: string, style?: Style): Span {
  return { text: sanitize(text), style };
}

function hasTokens(token: Token): token is Token & { tokens: Token[] } {
  return Array.isArray((token as { tokens?: unknown }).tokens);
}

export function renderInline(tokens: readonly Token[] | undefined, style: Style | undefined, ctx: MarkdownContext): Span[] {
  const out: Span[] = [];
  const { styles } = ctx;
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        pushAll(out, renderInline(token.tokens, mergeStyles(style, styles.strong), ctx));
        break;
      case 'em':
        pushAll(out, renderInline(token.tokens, mergeStyles(style, styles.em), ctx));
        break;
      case 'del':
        pushAll(out, renderInline(token.tokens, mergeStyles(style, styles.del), ctx));
        break;
      case 'codespan':
        // Without colour the backticks are the only thing that sets code apart.
        out.push(literal(styles.color ? token.text : `\`${token.text}\``, mergeStyles(style, styles.codespan)));
        break;
      case 'br':
        out.push({ text: '\n', style });
        break;
      case 'link': {
        const link = token as Tokens.Link;
        const label = renderInline(link.tokens, mergeStyles(style, styles.link), ctx);
        pushAll(out, label);
        const labelText = label.map((part) => part.text).join('');
        const href = clean(link.href);
        const sameAsLabel = href === labelText || href === `mailto:${labelText}` || href === `http://${labelText}`;
        if (!sameAsLabel && href.length > 0) out.push({ text: ` (${href})`, style: mergeStyles(style, styles.url) });
        break;
      }
      case 'image': {
        const image = token as Tokens.Image;
        out.push(span(`[image: ${image.text || 'untitled'}]`, mergeStyles(style, styles.link)));
        if (image.href) out.push(span(` (${image.href})`, mergeStyles(style, styles.url)));
        break;
      }
      case 'checkbox':
        break;
      case 'html':
        out.push(span(token.raw, mergeStyles(style, styles.muted)));
        break;
      case 'escape':
        out.push(span(token.text, style));
        break;
      case 'text':
        // A soft line break stays a line break: models use single newlines for addresses,
        // verses and aligned text, and the terminal shows what they wrote.
        if (hasTokens(token) && token.tokens.length > 0) pushAll(out, renderInline(token.tokens, style, ctx));
        else out.push(span((token as Tokens.Text).text ?? token.raw, style));
        break;
      default:
        if (hasTokens(token)) pushAll(out, renderInline(token.tokens, style, ctx));
        else out.push(span((token as { text?: string }).text ?? token.raw, style));
    }
  }
  return out;
}

const BULLETS = ['•', '◦', '▹', '‣'];

function prefixLines(lines: string[], first: Span[], rest: Span[]): string[] {
  const firstText = serialize(first);
  const restText = serialize(rest);
  return lines.map((line, index) => (index === 0 ? firstText : restText) + line);
}

function renderList(list: Tokens.List, width: number, ctx: MarkdownContext): string[] {
  const { styles } = ctx;
  const start = typeof list.start === 'number' ? list.start : 1;
  const markers = list.items.map((_, index) => (list.ordered ? `${start + index}.` : BULLETS[ctx.listDepth % BULLETS.length]!));
  const markerWidth = maxOf(markers.map((marker) => [...marker].length)) + 1;
  // A list nested deeper than the terminal allows loses its indentation rather than its text.
  const indent = markerWidth < width - 4 ? markerWidth : 0;
  const out: string[] = [];
  list.items.forEach((item, index) => {
    if (list.loose && index > 0) out.push('');
    const blocks = item.tokens.filter((token) => token.type !== 'checkbox');
    // A task's box leads its first row; the rest of the item lines up after it.
    const box = item.task && width - indent > 6 ? 2 : 0;
    let inner = renderBlocks(blocks, width - indent - box, { ...ctx, listDepth: ctx.listDepth + 1 }, !list.loose);
    if (box > 0) inner = prefixLines(inner.length > 0 ? inner : [''], [{ text: item.checked ? '☒ ' : '☐ ', style: styles.listMarker }], [{ text: '  ' }]);
    const marker = markers[index]!;
    const padded = list.ordered ? marker.padStart(markerWidth - 1) + ' ' : marker.padEnd(markerWidth);
    if (indent > 0) {
      pushAll(out, prefixLines(inner.length > 0 ? inner : [''], [{ text: padded, style: styles.listMarker }], [{ text: ' '.repeat(indent) }]));
    } else {
      { out.push(serialize([{ text: marker, style: styles.listMarker }])); pushAll(out, inner); }
    }
  });
  return out;
}

function renderCode(code: Tokens.Code, width: number, ctx: MarkdownContext): string[] {
  if (ctx.growingCode) {
    const { rows, waiting } = ctx.growingCode.rows(sanitize(code.text), code.lang, width, ctx.styles.code);
    if (waiting) ctx.waitingForHighlighter = true;
    return rows;
  }
  const { spans, waiting } = highlightCode(sanitize(code.text), code.lang, ctx.styles.code);
  if (waiting) ctx.waitingForHighlighter = true;
  return codeRows(spans, width);
}

function renderBlock(token: Token, width: number, ctx: MarkdownContext): string[] | undefined {
  const { styles } = ctx;
  switch (token.type) {
    case 'space':
    case 'def':
      return undefined;
    case 'paragraph':
      return wrapSpans(renderInline(token.tokens, undefined, ctx), width);
    case 'text':
      return wrapSpans(hasTokens(token) ? renderInline(token.tokens, undefined, ctx) : [span(token.text)], width);
    case 'heading': {
      const style = styles.heading[Math.min(token.depth, 3) - 1];
      return wrapSpans(renderInline(token.tokens, style, ctx), width);
    }
    case 'code':
      return renderCode(token as Tokens.Code, width, ctx);
    case 'blockquote': {
      const barred = width > 3;
      const inner = renderBlocks(token.tokens ?? [], barred ? width - 2 : width, ctx, false);
      const bar: Span[] = barred ? [{ text: '│ ', style: styles.quoteBar }] : [];
      return prefixLines(inner, bar, bar);
    }
    case 'list':
      return renderList(token as Tokens.List, width, ctx);
    case 'table':
      return renderTable(token as Tokens.Table, width, ctx);
    case 'hr':
      return [serialize([{ text: '─'.repeat(Math.max(1, width)), style: styles.rule }])];
    case 'html':
      return wrapSpans([span(token.raw.replace(/\n+$/, ''), styles.muted)], width);
    default:
      if (hasTokens(token)) return wrapSpans(renderInline(token.tokens, undefined, ctx), width);
      return token.raw ? wrapSpans([span(token.raw.replace(/\n+$/, ''))], width) : undefined;
  }
}

/** Renders each block on its own (streaming keeps finished blocks and redraws only the last ones). */
export function renderBlockList(tokens: readonly Token[], width: number, ctx: MarkdownContext): string[][] {
  const blocks: string[][] = [];
  for (const token of tokens) {
    const lines = renderBlock(token, width, ctx);
    if (lines) blocks.push(lines);
  }
  return blocks;
}

export function joinBlocks(blocks: readonly (readonly string[])[], tight = false): string[] {
  const out: string[] = [];
  for (const block of blocks) {
    if (out.length > 0 && !tight) out.push('');
    pushAll(out, block);
  }
  return out;
}

export function renderBlocks(tokens: readonly Token[], width: number, ctx: MarkdownContext, tight: boolean): string[] {
  return joinBlocks(renderBlockList(tokens, width, ctx), tight);
}

export function lexMarkdown(text: string): Token[] {
  return Lexer.lex(text, { gfm: true }) as unknown as Token[];
}

/** Every kind of block and inline markdown an answer has, for warmUpMarkdown. */
const WARM_UP_SAMPLE = [
  '# Heading\n\nSetext\n---\n\nA paragraph with *emphasis*, **strong**, ~~struck~~, `code`, a [link](https://example.com) and <https://example.com>.',
  '- item\n- item\n  1. nested\n  2. [x] done\n\n> quoted\n\n```ts\nconst x = 1;\n```\n\n    indented code\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\n<div>html</div>\n\n***\n\n[ref]: https://example.com',
].join('\n\n');

/**
 * Lexes a small document once, so marked compiles its expressions before the first answer needs
 * them: the first lex in a process costs about 50 ms, later ones a fraction of a millisecond. Then
 * loads and compiles the grammars of the languages answers use most, one per turn of the event
 * loop (warmUpHighlighter). The app calls it in idle time after the first frame.
 */
export function warmUpMarkdown(): void {
  lexMarkdown(WARM_UP_SAMPLE);
  void warmUpHighlighter();
}

/** Markdown text (already sanitized) to rows of at most `width` columns. */
export function renderMarkdown(text: string, width: number, ctx: MarkdownContext): string[] {
  return joinBlocks(renderBlockList(lexMarkdown(text), width, ctx));
}
