import type { Token } from 'marked';
import { sanitize } from '../services/terminal/sanitize';
import { GrowingCode } from './growingCode';
import { highlighterGeneration } from './highlight';
import { joinBlocks, lexMarkdown, renderBlockList, type MarkdownContext } from './markdown';
import type { ChatStyles } from './style';
import { completeStreamingTail } from './streamingTail';
import { startsWithText, wrapSpans, type Span } from './text';
import { pushAll } from '../services/terminal/rows';

/**
 * Incremental layout of text that only grows (a streamed answer or reasoning), so a frame costs
 * what the newest part costs, not what the whole message costs.
 *
 * Markdown: once a block is followed by a blank line and another block has started, nothing
 * appended later can change it (CommonMark closes it; only the last block can still become a
 * setext heading, a table, a longer list or a longer fence). Those finished blocks are lexed and
 * laid out once; each frame re-lexes only the text after them. An unclosed fence is the last
 * block and renders as code so far, its finished lines kept (growingCode.ts); dangling inline
 * markers on the last line are completed or hidden (streamingTail.ts). The text is sanitized
 * line by line as it arrives. When the message ends, the whole text is laid out once more in one
 * piece, so the final result never depends on how the stream was split.
 */

interface MarkdownStream {
  /** The finished prefix of the text; lexed and laid out already. */
  stableText: string;
  stableTokens: Token[];
  /** Rendered finished blocks, valid for `width`, `styles` and `generation`. */
  stableBlocks: string[][];
  width: number;
  styles: ChatStyles;
  generation: number;
  waiting: boolean;
  /** `stableBlocks` joined, as the rows before the unfinished blocks. */
  stableLines: string[];
  /** Raw text up to its last newline, and that text sanitized: nothing crosses a newline in sanitize. */
  rawLines: string;
  cleanLines: string;
  code: GrowingCode;
}

interface PlainStream {
  stableText: string;
  stableLines: string[];
  width: number;
  style: Span['style'];
}

const markdownStreams = new Map<string, MarkdownStream>();
const plainStreams = new Map<string, PlainStream>();
/** More streams than this at once means ids were not released; start over rather than grow. */
const MAX_STREAMS = 64;

export const streamingStats = { relexedChars: 0, stableBlocksRendered: 0 };

/** Forgets the incremental state of a message that finished streaming. */
export function releaseStream(id: string): void {
  markdownStreams.delete(id);
}

function rawLength(tokens: readonly Token[]): number {
  let length = 0;
  for (const token of tokens) length += token.raw.length;
  return length;
}

/** `raw` sanitized, reusing the sanitized lines of the text it grew from. */
function sanitizeGrowing(stream: MarkdownStream, raw: string): string {
  if (!startsWithText(raw, stream.rawLines)) {
    stream.rawLines = '';
    stream.cleanLines = '';
  }
  const cut = raw.lastIndexOf('\n') + 1;
  if (cut > stream.rawLines.length) {
    stream.cleanLines += sanitize(raw.slice(stream.rawLines.length, cut));
    stream.rawLines = raw.slice(0, cut);
  }
  return stream.cleanLines + sanitize(raw.slice(cut));
}

function newStream(width: number, styles: ChatStyles, generation: number): MarkdownStream {
  return { stableText: '', stableTokens: [], stableBlocks: [], stableLines: [], width, styles, generation, waiting: false, rawLines: '', cleanLines: '', code: new GrowingCode() };
}

/** Blocks of the unfinished end; a fenced block at its end is laid out as a growing one. */
function renderTail(tokens: readonly Token[], width: number, ctx: MarkdownContext, code: GrowingCode): string[][] {
  let last = tokens.length - 1;
  while (last >= 0 && tokens[last]!.type === 'space') last--;
  if (last < 0 || tokens[last]!.type !== 'code') return renderBlockList(tokens, width, ctx);
  const growing: MarkdownContext = { ...ctx, waitingForHighlighter: false, growingCode: code };
  const blocks = [...renderBlockList(tokens.slice(0, last), width, ctx), ...renderBlockList([tokens[last]!], width, growing)];
  if (growing.waitingForHighlighter) ctx.waitingForHighlighter = true;
  return blocks;
}

/**
 * Lays out the markdown of a streaming message. `raw` is the message text as received (it is
 * sanitized here, line by line as it arrives).
 */
export function renderMarkdownStreaming(id: string, raw: string, width: number, ctx: MarkdownContext): string[] {
  let stream = markdownStreams.get(id);
  const generation = highlighterGeneration();
  if (!stream) {
    if (markdownStreams.size >= MAX_STREAMS) markdownStreams.clear();
    stream = newStream(width, ctx.styles, generation);
    markdownStreams.set(id, stream);
  }
  const text = sanitizeGrowing(stream, raw);
  if (!startsWithText(text, stream.stableText)) {
    const fresh = newStream(width, ctx.styles, generation);
    fresh.rawLines = stream.rawLines;
    fresh.cleanLines = stream.cleanLines;
    stream = fresh;
    markdownStreams.set(id, stream);
  }
  if (stream.width !== width || stream.styles !== ctx.styles || (stream.waiting && stream.generation !== generation)) {
    const relayout: MarkdownContext = { ...ctx, waitingForHighlighter: false };
    stream.stableBlocks = renderBlockList(stream.stableTokens, width, relayout);
    stream.stableLines = joinBlocks(stream.stableBlocks);
    stream.waiting = relayout.waitingForHighlighter;
    stream.width = width;
    stream.styles = ctx.styles;
    stream.generation = generation;
    streamingStats.stableBlocksRendered += stream.stableTokens.length;
  }

  const tail = text.slice(stream.stableText.length);
  let tailTokens = lexMarkdown(tail);
  streamingStats.relexedChars += tail.length;
  // Only when the tokens account for every character can the text be cut at a token boundary.
  if (rawLength(tailTokens) === tail.length) {
    let lastContent = tailTokens.length - 1;
    while (lastContent >= 0 && tailTokens[lastContent]!.type === 'space') lastContent--;
    let boundary = lastContent - 1;
    while (boundary >= 0 && tailTokens[boundary]!.type !== 'space') boundary--;
    if (boundary >= 0) {
      const finished = tailTokens.slice(0, boundary + 1);
      const blockCtx: MarkdownContext = { ...ctx, waitingForHighlighter: false };
      const blocks = renderBlockList(finished, width, blockCtx);
      for (const block of blocks) {
        if (stream.stableLines.length > 0) stream.stableLines.push('');
        for (const line of block) stream.stableLines.push(line);
        stream.stableBlocks.push(block);
      }
      stream.waiting ||= blockCtx.waitingForHighlighter;
      for (const token of finished) stream.stableTokens.push(token);
      stream.stableText += tail.slice(0, rawLength(finished));
      streamingStats.stableBlocksRendered += finished.length;
      tailTokens = tailTokens.slice(boundary + 1);
    }
  }
  // The unfinished end is drawn as it will most likely end (no markers flashing, see streamingTail).
  const unstable = text.slice(stream.stableText.length);
  const completed = completeStreamingTail(unstable, tailTokens);
  if (completed !== unstable) {
    tailTokens = lexMarkdown(completed);
    streamingStats.relexedChars += completed.length;
  }
  if (stream.waiting) ctx.waitingForHighlighter = true;
  // As joinBlocks would join the finished and the unfinished blocks, copying only the row list.
  const lines = stream.stableLines.slice();
  for (const block of renderTail(tailTokens, width, ctx, stream.code)) {
    if (lines.length > 0) lines.push('');
    for (const line of block) lines.push(line);
  }
  return lines;
}

/**
 * Plain text that grows: every line before the last newline is final, so only the last line is
 * wrapped again on each frame.
 */
export function wrapPlainStreaming(id: string, text: string, width: number, style: Span['style']): string[] {
  let stream = plainStreams.get(id);
  if (!stream || stream.width !== width || stream.style !== style || !startsWithText(text, stream.stableText)) {
    if (plainStreams.size >= MAX_STREAMS) plainStreams.clear();
    stream = { stableText: '', stableLines: [], width, style };
    plainStreams.set(id, stream);
  }
  const lastNewline = text.lastIndexOf('\n');
  if (lastNewline + 1 > stream.stableText.length) {
    const finished = text.slice(stream.stableText.length, lastNewline);
    pushAll(stream.stableLines, wrapSpans([{ text: finished, style }], width));
    stream.stableText = text.slice(0, lastNewline + 1);
  }
  const rest = text.slice(stream.stableText.length);
  return [...stream.stableLines, ...wrapSpans([{ text: rest, style }], width)];
}

export function releasePlainStream(id: string): void {
  plainStreams.delete(id);
}
