import { sanitize, sanitizeLabel } from '../services/terminal/sanitize';
import type { ChatItem } from '../state/types';
import { ERROR_GLYPH, EXPAND_HINT, INDENT, INFO_GLYPH, LIMITS, omittedLine, WARN_GLYPH, type ItemContext, type ItemLayout } from './common';
import { renderMarkdown, type MarkdownContext } from './markdown';
import { clipHead, exceedsHead } from './preview';
import { releasePlainStream, releaseStream, renderMarkdownStreaming, wrapPlainStreaming } from './streaming';
import type { Style } from './style';
import { serialize, spansWidth, textWidth, truncateSpans, wrapSpans, type Span } from './text';
import { commandItemLines, toolItemLines } from './tools';
import { pushAll } from '../services/terminal/rows';

export type { ItemContext, ItemLayout } from './common';

/** False for items this view does not draw: pending approvals and proposed commands have their own frames, empty answers nothing to show. */
export function isDrawn(item: ChatItem): boolean {
  switch (item.kind) {
    case 'tool':
      return item.state !== 'pending';
    case 'command':
      return item.state !== 'proposed';
    case 'assistant':
      return item.streaming || item.text.length > 0 || item.reasoning.length > 0 || item.endNote !== undefined;
    default:
      return true;
  }
}

/**
 * Items that show more when expanded (the chat's `x` key): tool calls and commands (arguments,
 * whole results) and user or status messages longer than what they show folded.
 */
export function isExpandable(item: ChatItem): boolean {
  switch (item.kind) {
    case 'tool':
    case 'command':
    case 'compaction':
      return true;
    case 'user':
      return exceedsHead(item.text, LIMITS.userLines, LIMITS.maxChars);
    case 'status':
      return exceedsHead(item.text, LIMITS.statusLines, LIMITS.maxChars);
    default:
      return false;
  }
}

/** Tool and command rows sit right under the answer that asked for them, without a blank line. */
export function attachesTo(above: ChatItem, item: ChatItem): boolean {
  return (item.kind === 'tool' || item.kind === 'command') && (above.kind === 'assistant' || above.kind === 'tool' || above.kind === 'command');
}

function userLines(item: Extract<ChatItem, { kind: 'user' }>, width: number, ctx: ItemContext): string[] {
  const { styles } = ctx;
  const clipped = clipHead(item.text, ctx.expanded ? LIMITS.expandedLines : LIMITS.userLines, ctx.expanded ? LIMITS.expandedChars : LIMITS.maxChars);
  const lines = wrapSpans([{ text: sanitize(clipped.text), style: styles.userText }], width, {
    firstPrefix: [{ text: '› ', style: styles.userPrefix }],
    restPrefix: INDENT,
  });
  const chips = (item.attachments ?? []).flatMap((label) => wrapSpans([{ text: `[${sanitize(label, { newlines: 'escape' })}]`, style: styles.userPrefix }], width, { firstPrefix: INDENT, restPrefix: INDENT }));
  return [...lines, ...chips, ...omittedLine(clipped, styles, 'more', width, ctx.expanded ? undefined : EXPAND_HINT)];
}

const END_NOTES: Record<string, string> = {
  incomplete: 'answer incomplete (connection closed)',
  cancelled: 'answer cancelled',
  length: 'answer cut off (length limit reached)',
  content_filter: 'answer stopped by the content filter',
  error: 'answer incomplete (error)',
};

function assistantLines(item: Extract<ChatItem, { kind: 'assistant' }>, width: number, ctx: ItemContext, layout: ItemLayout): string[] {
  const { styles } = ctx;
  const lines: string[] = [];
  const reasoningKey = `${item.id}:reasoning`;
  if (item.reasoning.length > 0) {
    const text = sanitize(item.reasoning.replace(/^\n+/, '').replace(/\s+$/, ''));
    const inner = Math.max(1, width - 2);
    const wrapped = item.streaming ? wrapPlainStreaming(reasoningKey, text, inner, styles.reasoning) : wrapSpans([{ text, style: styles.reasoning }], inner);
    if (ctx.reasoningCollapsed) {
      const label = `▸ reasoning (${wrapped.length} ${wrapped.length === 1 ? 'line' : 'lines'})`;
      lines.push(serialize(truncateSpans([{ text: label, style: styles.reasoningHeader }], width)));
    } else {
      lines.push(serialize(truncateSpans([{ text: '▾ reasoning', style: styles.reasoningHeader }], width)));
      const indent = width > 2 ? serialize(INDENT) : '';
      for (const line of wrapped) lines.push(indent + line);
    }
  }
  if (!item.streaming) {
    releaseStream(item.id);
    releasePlainStream(reasoningKey);
  }

  if (item.text.length > 0) {
    if (lines.length > 0) lines.push('');
    const markdown: MarkdownContext = { styles, waitingForHighlighter: false, listDepth: 0 };
    // A streaming answer is sanitized as it arrives, line by line (renderMarkdownStreaming).
    pushAll(lines, (item.streaming ? renderMarkdownStreaming(item.id, item.text, width, markdown) : renderMarkdown(sanitize(item.text), width, markdown)));
    layout.waitingForHighlighter = markdown.waitingForHighlighter;
  } else if (item.streaming && item.reasoning.length === 0) {
    lines.push(serialize([{ text: '…', style: styles.muted }]));
  }

  if (item.endNote !== undefined) {
    const note = END_NOTES[item.endNote] ?? sanitizeLabel(item.endNote);
    if (lines.length > 0) lines.push('');
    pushAll(lines, wrapSpans([{ text: `${WARN_GLYPH} ${note}`, style: styles.warn }], width, { restPrefix: INDENT }));
  }
  return lines;
}

const STATUS_GLYPHS = { info: INFO_GLYPH, warn: WARN_GLYPH, error: ERROR_GLYPH } as const;

/** A hanging column leaves at least this many columns for the text under it. */
const MIN_HANGING_TEXT = 24;
/** How far a row hangs when its second column is too far right for the width. */
const FALLBACK_HANG = 4;

/**
 * Where the wrapped rows of one status line continue, in columns from the text's left edge: under
 * the last column of a `name  …  description` row (the listings of the `:` commands; `:mcp tools`
 * has a cost and a state between), else under the second column when the last leaves no room for
 * the text, else under the line's own indentation, so a long description reads as one block
 * instead of running back to the margin under the names.
 */
export function hangingColumn(line: string, width: number): number {
  const indent = /^ */.exec(line)![0].length;
  const gap = / {2,}(?=\S)/g;
  gap.lastIndex = indent;
  // The first and the last column after the names; one between (a cost, a state) is no block.
  const first = gap.exec(line);
  let last = first;
  for (let found = first && gap.exec(line); found; found = gap.exec(line)) last = found;
  const columnOf = (found: RegExpExecArray | null) => (found ? textWidth(line.slice(0, found.index)) + found[0].length : indent);
  const lastColumn = columnOf(last);
  if (width - lastColumn >= MIN_HANGING_TEXT) return lastColumn;
  const column = columnOf(first);
  if (width - column >= MIN_HANGING_TEXT) return column;
  return width - indent - FALLBACK_HANG >= MIN_HANGING_TEXT ? indent + FALLBACK_HANG : 0;
}

function statusLines(item: Extract<ChatItem, { kind: 'status' }>, width: number, ctx: ItemContext): string[] {
  const { styles } = ctx;
  const levelStyle: Style = item.level === 'error' ? styles.error : item.level === 'warn' ? styles.warn : styles.info;
  const textStyle: Style = item.level === 'info' ? styles.muted : levelStyle;
  const clipped = clipHead(item.text, ctx.expanded ? LIMITS.expandedLines : LIMITS.statusLines, ctx.expanded ? LIMITS.expandedChars : LIMITS.maxChars);
  const glyph: Span[] = [{ text: `${STATUS_GLYPHS[item.level]} `, style: { ...levelStyle, bold: item.level !== 'info' } }];
  const textWidthAvailable = width - spansWidth(INDENT);
  const lines = sanitize(clipped.text)
    .split('\n')
    .flatMap((line, index) => {
      const hang = hangingColumn(line, textWidthAvailable);
      return wrapSpans([{ text: line, style: textStyle }], width, {
        firstPrefix: index === 0 ? glyph : INDENT,
        restPrefix: INDENT,
        continuationPrefix: hang > 0 ? [{ text: ' '.repeat(spansWidth(INDENT) + hang) }] : INDENT,
      });
    });
  return [...lines, ...omittedLine(clipped, styles, 'more', width, ctx.expanded ? undefined : EXPAND_HINT)];
}

const COMPACTION_TRIGGERS = { user: ':compact', auto: 'automatic', overflow: 'after the server refused the length' } as const;

const tokens = (value: number) => (value < 1000 ? String(value) : `${(value / 1000).toFixed(1)}k`);

/** `↻ compacted 12 messages (3.6k → 0.7k tokens, automatic)`, the summary under it when expanded. */
function compactionLines(item: Extract<ChatItem, { kind: 'compaction' }>, width: number, ctx: ItemContext): string[] {
  const { styles } = ctx;
  const size = item.tokensBefore !== undefined && item.tokensAfter !== undefined ? `${tokens(item.tokensBefore)} → ${tokens(item.tokensAfter)} tokens, ` : '';
  const head = `${ctx.expanded ? '▾' : '▸'} compacted ${item.replaced} earlier message${item.replaced === 1 ? '' : 's'} (${size}${COMPACTION_TRIGGERS[item.trigger]})`;
  const lines = wrapSpans([{ text: head, style: styles.info }], width, { restPrefix: INDENT });
  if (!ctx.expanded) {
    lines.push(serialize(truncateSpans([{ text: `  summary sent instead; the full history stays in the session log · ${EXPAND_HINT.replace('them', 'it')}`, style: styles.muted }], width)));
    return lines;
  }
  if (item.focus) pushAll(lines, wrapSpans([{ text: `focus: ${sanitize(item.focus)}`, style: styles.muted }], width, { firstPrefix: INDENT, restPrefix: INDENT }));
  const clipped = clipHead(item.summary, LIMITS.expandedLines, LIMITS.expandedChars);
  const body = renderMarkdown(sanitize(clipped.text), Math.max(1, width - 2), { styles, waitingForHighlighter: false, listDepth: 0 });
  const indent = serialize(INDENT);
  for (const line of body) lines.push(indent + line);
  return [...lines, ...omittedLine(clipped, styles, 'more', width)];
}

/** Lays one item out in rows of at most `width` columns. Every untrusted string is sanitized first. */
export function layoutItem(item: ChatItem, width: number, ctx: ItemContext): ItemLayout {
  const layout: ItemLayout = { lines: [], waitingForHighlighter: false, clock: false };
  switch (item.kind) {
    case 'user':
      layout.lines = userLines(item, width, ctx);
      break;
    case 'assistant':
      layout.lines = assistantLines(item, width, ctx, layout);
      break;
    case 'status':
      layout.lines = statusLines(item, width, ctx);
      break;
    case 'tool':
      layout.lines = toolItemLines(item, width, ctx);
      layout.clock = item.state === 'running';
      break;
    case 'command':
      layout.lines = commandItemLines(item, width, ctx);
      layout.clock = item.state === 'running';
      break;
    case 'compaction':
      layout.lines = compactionLines(item, width, ctx);
      break;
  }
  return layout;
}
