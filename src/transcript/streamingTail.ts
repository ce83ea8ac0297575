import type { Token, Tokens } from 'marked';
import { lexMarkdown } from './markdown';

/**
 * The last line of an answer that is still streaming often ends inside inline markup: `**bol`,
 * `` `cod ``, or a marker that has just arrived (`see **`). Drawn as markdown says, the markers
 * show as literal characters until the closer arrives, and then vanish, so the line jumps on every
 * bold word. Here the streaming tail is drawn as it will most likely end: an opened emphasis,
 * strike or code span is closed at the end of the line (the text so far shows styled), and a
 * marker with nothing after it yet is hidden. Only the last line of the last block is touched,
 * and only while streaming: finished blocks and finished messages render exactly as written.
 *
 * Openers are recognised more strictly than CommonMark: only after a space, punctuation or the
 * start of the line (never inside a word, so `2*3` or `snake_case` stay literal) and never inside
 * a URL. The end of the text can always be hidden safely: whatever arrives next extends it, so a
 * `***` still waiting for its newline (a rule) or a `*` waiting for its space (a bullet) shows
 * nothing for a moment rather than something that turns into another thing.
 */

interface Run {
  char: string;
  start: number;
  length: number;
}

const WHITESPACE = /\s/;
const PUNCTUATION = /[\p{P}\p{S}]/u;
const MAYBE_MARKUP = /[*_`~]/;

function isSpace(char: string | undefined): boolean {
  return char === undefined || WHITESPACE.test(char);
}

function isPunctuation(char: string | undefined): boolean {
  return char !== undefined && PUNCTUATION.test(char);
}

/** A marker inside `https://…` or `www.…` is part of the address. */
function insideUrl(line: string, at: number): boolean {
  let start = at;
  while (start > 0 && !isSpace(line[start - 1])) start--;
  let end = at;
  while (end < line.length && !isSpace(line[end])) end++;
  const word = line.slice(start, end);
  return word.includes('://') || /^[<(]?www\./.test(word);
}

/** Start of the next run of exactly `length` backticks at or after `from`, or -1. */
function closingBackticks(line: string, from: number, length: number): number {
  let index = line.indexOf('`', from);
  while (index !== -1) {
    let end = index;
    while (line[end] === '`') end++;
    if (end - index === length) return index;
    index = line.indexOf('`', end);
  }
  return -1;
}

interface Scan {
  /** Emphasis and strike openers still open at the end of the line, outermost first. */
  openers: Run[];
  /** A code span opened and not closed: everything after it is code. */
  code?: Run;
  /** A marker run touching the end of the line that may still grow or close something: hidden. */
  trailing?: Run;
}

function scanLine(line: string): Scan {
  const openers: Run[] = [];
  let trailing: Run | undefined;
  let index = 0;
  while (index < line.length) {
    const char = line[index]!;
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char === '`') {
      let end = index;
      while (line[end] === '`') end++;
      const close = closingBackticks(line, end, end - index);
      if (close === -1) return { openers, code: { char, start: index, length: end - index } };
      index = close + (end - index);
      continue;
    }
    if (char !== '*' && char !== '_' && char !== '~') {
      index++;
      continue;
    }
    let end = index;
    while (line[end] === char) end++;
    const run: Run = { char, start: index, length: end - index };
    index = end;
    if (run.length > 3 || insideUrl(line, run.start)) continue;
    const before = line[run.start - 1];
    const after = line[end];
    const afterWordStart = isSpace(before) || isPunctuation(before);
    if (end === line.length) {
      // `see **` may become an opener, `**bold*` a closer still missing a character: wait.
      // Hiding the very end of the text never makes anything jump: what follows extends it.
      if (afterWordStart || openers.some((opener) => opener.char === char)) trailing = run;
      continue;
    }
    if (char === '~' && run.length !== 2) continue;
    const leftFlanking = !isSpace(after) && (!isPunctuation(after) || afterWordStart);
    const rightFlanking = !isSpace(before) && (!isPunctuation(before) || isSpace(after) || isPunctuation(after));
    const canOpen = leftFlanking && afterWordStart;
    const canClose = rightFlanking && (char !== '_' || !leftFlanking || isPunctuation(after));
    let remaining = run.length;
    if (canClose) {
      for (let match = openers.length - 1; match >= 0 && remaining > 0; match--) {
        const opener = openers[match]!;
        if (opener.char !== char) continue;
        // Openers between the pair stay literal, as in CommonMark.
        openers.length = match + 1;
        const used = Math.min(opener.length, remaining);
        opener.length -= used;
        remaining -= used;
        if (opener.length === 0) openers.pop();
      }
    }
    if (canOpen && remaining > 0) openers.push({ char, start: run.start, length: remaining });
  }
  return { openers, trailing };
}

/** One line with its dangling inline markup closed or hidden (see the comment at the top). */
export function closeDanglingMarkup(line: string): string {
  if (!MAYBE_MARKUP.test(line)) return line;
  const scan = scanLine(line);
  if (scan.openers.length === 0 && !scan.code && !scan.trailing) return line;
  let body = scan.trailing ? line.slice(0, scan.trailing.start) : line;
  const trailingSpace = /\s*$/.exec(body)![0];
  body = body.slice(0, body.length - trailingSpace.length);
  // Innermost first: the code span (everything after it is code), then emphasis, last opened first.
  const open = [...scan.openers, ...(scan.code ? [scan.code] : [])].reverse();
  for (const run of open) {
    if (body.length <= run.start + run.length) {
      // Nothing after the marker yet: hide it rather than draw it.
      body = body.slice(0, run.start).trimEnd();
    } else {
      body += run.char.repeat(run.length);
    }
  }
  return body + (body.length > 0 ? trailingSpace : '');
}

/** The innermost block at the end of `tokens` (into lists and quotes). */
function lastLeaf(tokens: readonly Token[]): Token | undefined {
  let index = tokens.length - 1;
  while (index >= 0 && tokens[index]!.type === 'space') index--;
  const token = tokens[index];
  if (!token) return undefined;
  if (token.type === 'list') {
    const item = (token as Tokens.List).items.at(-1);
    // An item with nothing in it yet (`- *` lexes as an empty nested item) is where the text goes on.
    return item && item.tokens.length > 0 ? lastLeaf(item.tokens) : item;
  }
  if (token.type === 'blockquote') return lastLeaf((token as Tokens.Blockquote).tokens);
  return token;
}

const PROSE = new Set(['paragraph', 'text', 'heading', 'list_item']);

/**
 * The unfinished end of a streaming answer, ready to draw: its last line with dangling inline
 * markup completed when that line is prose (not code, a table or HTML). `tokens` are the lexed
 * `text` when the caller has them. Returns `text` itself when there is nothing to complete.
 */
export function completeStreamingTail(text: string, tokens?: readonly Token[]): string {
  const lineStart = text.lastIndexOf('\n') + 1;
  const line = text.slice(lineStart);
  if (!MAYBE_MARKUP.test(line)) return text;
  const leaf = lastLeaf(tokens ?? lexMarkdown(text));
  if (!leaf || !PROSE.has(leaf.type)) return text;
  const completed = closeDanglingMarkup(line);
  return completed === line ? text : text.slice(0, lineStart) + completed;
}
