import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Output from '../../../node_modules/ink/build/output';
import { composeWithInk, inkOutputStats, installFastInkOutput } from '../../../src/terminal/inkOutput';

// The row cache must give exactly what Ink composes, byte for byte, for any mix of writes, clips,
// styles, wide characters and transformers, and from one frame to the next.

let uninstall: () => void;
beforeAll(() => {
  uninstall = installFastInkOutput();
});
afterAll(() => uninstall());

const piece = fc.oneof(
  fc.constantFrom('a', 'b', ' ', 'x y', '日本', '🦊', '│', '─╮', 'é', 'tab'),
  fc.tuple(fc.constantFrom('\x1b[31m', '\x1b[1m', '\x1b[44m', '\x1b[38;5;208m', '\x1b[4m'), fc.constantFrom('red', ' bold ', '語', 'x')).map(([open, text]) => `${open}${text}\x1b[0m`),
);
const line = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const text = fc.array(line, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
const upper = (value: string) => value.toUpperCase();
const numbered = (value: string, index: number) => `${index}${value}`;

type Op = { kind: 'write'; x: number; y: number; text: string; transform: 0 | 1 | 2 } | { kind: 'clip'; x1?: number; x2?: number; y1?: number; y2?: number } | { kind: 'unclip' };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('write' as const), x: fc.integer({ min: -2, max: 24 }), y: fc.integer({ min: -2, max: 9 }), text, transform: fc.constantFrom(0 as const, 1 as const, 2 as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('clip' as const), x1: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }), x2: fc.option(fc.integer({ min: 5, max: 24 }), { nil: undefined }), y1: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }), y2: fc.option(fc.integer({ min: 2, max: 9 }), { nil: undefined }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'unclip' as const }) },
);

function build(ops: Op[], width: number, height: number): Output {
  const output = new Output({ width, height });
  let depth = 0;
  for (const each of ops) {
    if (each.kind === 'write') output.write(each.x, each.y, each.text, { transformers: each.transform === 0 ? [] : each.transform === 1 ? [upper] : [numbered, upper] });
    else if (each.kind === 'clip') {
      output.clip({ x1: each.x1, x2: each.x2, y1: each.y1, y2: each.y2 });
      depth++;
    } else if (depth > 0) {
      output.unclip();
      depth--;
    }
  }
  return output;
}

describe('Ink output row cache', () => {
  it('composes every frame exactly as Ink does, also when rows repeat from the frame before', () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 14 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 9 }), (frames, width, height) => {
        for (const ops of frames) {
          expect(build(ops, width, height).get()).toEqual(composeWithInk(build(ops, width, height)));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('reuses rows of the previous frame, also when they moved', () => {
    const frame = (shift: number) => {
      const output = new Output({ width: 30, height: 6 });
      for (let row = 0; row < 6; row++) output.write(0, row, `\x1b[32mline ${row + shift}\x1b[39m`, { transformers: [] });
      output.write(20, 0, '│\n│\n│\n│\n│\n│', { transformers: [] });
      return output;
    };
    frame(0).get();
    const before = inkOutputStats.composed;
    expect(frame(1).get()).toEqual(composeWithInk(frame(1)));
    // Five rows are the previous frame's rows one up; only the new bottom row is composed.
    expect(inkOutputStats.composed - before).toBe(1);
  });
});
