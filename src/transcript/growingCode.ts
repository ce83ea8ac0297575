import { highlightGrowing } from './highlight';
import type { CodePalette } from './style';
import { serialize, startsWithText, wrapSpans, type Span } from './text';

/** A code block's rows: indented, wrapped at any character, every space kept. */
export function codeRows(spans: readonly Span[], width: number): string[] {
  const indent: Span[] = width > 6 ? [{ text: '  ' }] : [];
  return wrapSpans(spans, width, { mode: 'char', firstPrefix: indent, restPrefix: indent, continuationPrefix: indent });
}

/** Splits spans at a character offset. */
function splitSpans(spans: readonly Span[], offset: number): [Span[], Span[]] {
  const before: Span[] = [];
  const after: Span[] = [];
  let at = 0;
  for (const span of spans) {
    const end = at + span.text.length;
    if (end <= offset) before.push(span);
    else if (at >= offset) after.push(span);
    else {
      before.push({ text: span.text.slice(0, offset - at), style: span.style });
      after.push({ text: span.text.slice(offset - at), style: span.style });
    }
    at = end;
  }
  return [before, after];
}

/** The spans without their last character (a newline). */
function dropLastNewline(spans: Span[]): Span[] {
  const last = spans.at(-1);
  if (!last?.text.endsWith('\n')) return spans;
  const text = last.text.slice(0, -1);
  return text.length > 0 ? [...spans.slice(0, -1), { text, style: last.style }] : spans.slice(0, -1);
}

export const growingCodeStats = { highlightedChars: 0, frozenLines: 0 };

/**
 * Rows of the code block an answer is streaming, so that a frame costs the newest lines, not the
 * whole block. Highlighting a block again on every frame as it grows costs the square of its
 * length: a 600-line file streamed 7 tokens a frame spends seconds in the highlighter.
 *
 * Highlight.js reads forwards, so once the highlighter is back at the top level of the grammar
 * after a line, the lines before never change and highlighting can start afresh from there. The
 * highlighter does not say where that is; a line start outside every highlighted scope (no string,
 * comment, parameter list… open) is a candidate, and it is taken only when highlighting from it
 * alone colours the rest exactly as highlighting from the previous start did, and only once a
 * complete line follows it (a rule may look ahead past a newline). The rows before it are kept;
 * each frame highlights and wraps from the last such start: usually the last line or two.
 * The finished block is highlighted whole once more (markdown.ts), as every block is.
 */
export class GrowingCode {
  private info: string | undefined;
  private width = -1;
  private palette: CodePalette | undefined;
  /** Code whose rows are final; empty or ending with a newline. */
  private frozen = '';
  private frozenRows: string[] = [];
  /** A candidate start that failed the check, counted from `frozen` (not tried again). */
  private rejected = 0;

  rows(code: string, info: string | undefined, width: number, palette: CodePalette): { rows: string[]; waiting: boolean } {
    if (info !== this.info || width !== this.width || palette !== this.palette || !startsWithText(code, this.frozen)) {
      this.info = info;
      this.width = width;
      this.palette = palette;
      this.reset();
    }
    const rest = code.slice(this.frozen.length);
    const piece = highlightGrowing(rest, info, palette);
    growingCodeStats.highlightedChars += rest.length;
    if (piece.waiting) {
      // Plain until the grammar arrives; then everything is highlighted afresh.
      this.reset();
      return { rows: codeRows(piece.spans, width), waiting: true };
    }
    let spans = piece.spans;
    const start = this.candidate(rest, piece.lineStarts);
    if (start > 0) {
      const [before, after] = splitSpans(spans, start);
      let from = after;
      let same = true;
      if (piece.highlighted) {
        const fresh = highlightGrowing(rest.slice(start), info, palette);
        growingCodeStats.highlightedChars += rest.length - start;
        same = fresh.highlighted && serialize(fresh.spans) === serialize(after);
        from = fresh.spans;
      }
      if (same) {
        const rows = codeRows(dropLastNewline(before), width);
        for (const row of rows) this.frozenRows.push(row);
        growingCodeStats.frozenLines += rows.length;
        this.frozen += rest.slice(0, start);
        this.rejected = 0;
        spans = from;
      } else {
        this.rejected = start;
      }
    }
    return { rows: this.frozenRows.concat(codeRows(spans, width)), waiting: false };
  }

  /** The last line start in `rest` followed by a complete line, not rejected before; 0 if none. */
  private candidate(rest: string, lineStarts: readonly number[]): number {
    const lastNewline = rest.lastIndexOf('\n');
    if (lastNewline <= 0) return 0;
    const lastCompleteLine = rest.lastIndexOf('\n', lastNewline - 1) + 1;
    for (let index = lineStarts.length - 1; index >= 0; index--) {
      const start = lineStarts[index]!;
      if (start > lastCompleteLine) continue;
      return start > this.rejected ? start : 0;
    }
    return 0;
  }

  private reset(): void {
    this.frozen = '';
    this.frozenRows = [];
    this.rejected = 0;
  }
}
