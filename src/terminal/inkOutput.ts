import sliceAnsi from 'slice-ansi';
import { isWholeStyledLine } from './uncut-line';
// Ink does not export its Output class; this is the same module Ink's renderer imports (the
// bundler and Node resolve both to one file), so patching its prototype changes what Ink uses.
// Depending on a private class is made explicit and safe by pinning Ink to one exact version in
// package.json and by test/unit/render/ink-output-shape.test.ts, which fails, saying what to do,
// when the installed Ink's Output no longer has the shape this module mirrors (methods, their
// arity, the fields and operation kinds `get` reads). test/unit/render/ink-output.test.ts checks
// the result byte for byte against Ink's own `get`.
import Output from '../../node_modules/ink/build/output';

/**
 * Ink composes every frame from scratch: each row of the screen becomes a row of cell objects,
 * every line of text is tokenized into styled characters, and every row is turned back into a
 * string, about 5 ms for a full 120x40 screen. Between two frames of this app almost every row
 * is unchanged (or has only moved, while the transcript scrolls), so this `get` builds the same
 * result row by row: the writes that reach a row make its key; a row seen in this or the last
 * frame is taken as it was, a new one is composed by Ink's own `get` on a one-row Output with
 * exactly those writes, so the text is identical to what Ink would have produced.
 *
 * The cache holds two frames of rows and nothing else, so it never grows with the session.
 */

type Transformer = (line: string, index: number) => string;
type Clip = { x1: number | undefined; x2: number | undefined; y1: number | undefined; y2: number | undefined };
type Operation = { type: 'write'; x: number; y: number; text: string; transformers: Transformer[] } | { type: 'clip'; clip: Clip } | { type: 'unclip' };

/** What this module touches of an Output (private in Ink's types). */
interface OutputInternals {
  width: number;
  height: number;
  operations: Operation[];
  caches: { getStringWidth(text: string): number; getWidestLine(text: string): number };
}

interface Segment {
  x: number;
  line: string;
}

export const inkOutputStats = { rows: 0, composed: 0 };

const originalGet = Output.prototype.get;
let previousRows = new Map<string, string>();
let currentRows = new Map<string, string>();

/**
 * Ink's width caches live on each frame's Output, so every frame measured and clipped every line
 * of a clipped box (the sidebar) again: most of a sidebar key press's frame with many rows. The
 * results are kept for this and the last frame here, like the rows.
 */
class FrameMemo<T> {
  private previous = new Map<string, T>();
  private current = new Map<string, T>();
  get(key: string, make: () => T): T {
    let value = this.current.get(key);
    if (value !== undefined) return value;
    value = this.previous.get(key) ?? make();
    this.current.set(key, value);
    return value;
  }
  nextFrame(): void {
    this.previous = this.current;
    this.current = new Map();
  }
  clear(): void {
    this.previous = new Map();
    this.current = new Map();
  }
}
const widestLines = new FrameMemo<number>();
const clippedLines = new FrameMemo<string>();

/** The writes that reach each row, after clipping and transformers, in the order Ink applies them. */
function segmentsByRow(output: OutputInternals): Segment[][] {
  const rows: Segment[][] = Array.from({ length: output.height }, () => []);
  const clips: Clip[] = [];
  for (const operation of output.operations) {
    if (operation.type === 'clip') {
      clips.push(operation.clip);
      continue;
    }
    if (operation.type === 'unclip') {
      clips.pop();
      continue;
    }
    // From here on the steps are Ink's own (ink/build/output.js), minus drawing the characters.
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split('\n');
    const clip = clips.at(-1);
    if (clip) {
      const clipHorizontally = typeof clip.x1 === 'number' && typeof clip.x2 === 'number';
      const clipVertically = typeof clip.y1 === 'number' && typeof clip.y2 === 'number';
      if (clipHorizontally) {
        const width = widestLines.get(text, () => output.caches.getWidestLine(text));
        if (x + width < clip.x1! || x > clip.x2!) continue;
      }
      if (clipVertically) {
        if (y + lines.length < clip.y1! || y > clip.y2!) continue;
      }
      if (clipHorizontally) {
        const from = x < clip.x1! ? clip.x1! - x : 0;
        lines = lines.map((line) => {
          // The cut depends on the line, where it starts and the clip's right edge.
          const key = `${x}:${clip.x2}:${from}:${line}`;
          return clippedLines.get(key, () => {
            const width = output.caches.getStringWidth(line);
            const to = x + width > clip.x2! ? clip.x2! - x : width;
            if (from === 0 && to === width && isWholeStyledLine(line)) return line;
            return sliceAnsi(line, from, to);
          });
        });
        if (x < clip.x1!) x = clip.x1!;
      }
      if (clipVertically) {
        const from = y < clip.y1! ? clip.y1! - y : 0;
        const to = y + lines.length > clip.y2! ? clip.y2! - y : lines.length;
        lines = lines.slice(from, to);
        if (y < clip.y1!) y = clip.y1!;
      }
    }
    let offsetY = 0;
    for (let [index, line] of lines.entries()) {
      const row = rows[y + offsetY];
      // As in Ink: a line outside the output is skipped without moving on to the next row.
      if (!row) continue;
      for (const transformer of transformers) line = transformer(line, index);
      if (line.length > 0) row.push({ x, line });
      offsetY++;
    }
  }
  return rows;
}

function composeRow(width: number, segments: Segment[]): string {
  if (segments.length === 0) return '';
  let key = String(width);
  for (const { x, line } of segments) key += `|${x}:${line.length}:${line}`;
  let text = currentRows.get(key) ?? previousRows.get(key);
  if (text === undefined) {
    const single = new Output({ width, height: 1 }) as unknown as OutputInternals;
    for (const { x, line } of segments) single.operations.push({ type: 'write', x, y: 0, text: line, transformers: [] });
    text = originalGet.call(single as unknown as Output).output;
    inkOutputStats.composed++;
  }
  currentRows.set(key, text);
  return text;
}

function fastGet(this: Output): { output: string; height: number } {
  const output = this as unknown as OutputInternals;
  const rows = segmentsByRow(output);
  const lines = rows.map((segments) => composeRow(output.width, segments));
  inkOutputStats.rows += rows.length;
  previousRows = currentRows;
  currentRows = new Map();
  widestLines.nextFrame();
  clippedLines.nextFrame();
  return { output: lines.join('\n'), height: rows.length };
}

/** Makes Ink compose frames through the row cache (idempotent); returns a function that undoes it. */
export function installFastInkOutput(): () => void {
  Output.prototype.get = fastGet;
  return () => {
    Output.prototype.get = originalGet;
    previousRows = new Map();
    currentRows = new Map();
    widestLines.clear();
    clippedLines.clear();
  };
}

/** Ink's own composition, for comparing against in tests. */
export function composeWithInk(output: Output): { output: string; height: number } {
  return originalGet.call(output);
}
