import { isNarrow } from './narrow-width';

/**
 * Stand-ins for module-level values that packages make when they are imported, made on first use
 * instead (the build puts them in, see scripts/lazy-globals.mjs). Three copies of string-width 8
 * each build `/^\p{RGI_Emoji}$/v` (about 33 ms of CPU each) and the first grapheme segmenter loads
 * ICU's break data (about 19 ms); the first frame needs neither.
 */

/** A stand-in for what `make` returns, made when a property is first read (methods bound to it). */
export function lazyValue<T extends object>(make: () => T): T {
  let real: T | undefined;
  const target = (): T => (real ??= make());
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy({} as T, {
    get(_, key) {
      const value: unknown = Reflect.get(target(), key);
      if (typeof value !== 'function') return value;
      let method = bound.get(key);
      if (method === undefined) bound.set(key, (method = (value as (...args: unknown[]) => unknown).bind(target())));
      return method;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}

/** Escape (a control: a grapheme of its own) and the one-column characters of narrow-width.ts. */
function isOwnGrapheme(code: number): boolean {
  return code === 0x1b || isNarrow(code);
}

interface Segment {
  segment: string;
  index: number;
  input: string;
}

/** The segments of text whose every character is a grapheme of its own, as Intl.Segments gives them. */
function singleCharacterSegments(input: string) {
  const at = (index: number): Segment => ({ segment: input[index]!, index, input });
  return {
    containing: (index = 0): Segment | undefined => (index >= 0 && index < input.length ? at(Math.trunc(index)) : undefined),
    *[Symbol.iterator](): Generator<Segment> {
      for (let index = 0; index < input.length; index++) yield at(index);
    },
  };
}

/**
 * A grapheme segmenter made on first need: text of one-column characters and escapes (nearly all
 * the screen draws) is split into its characters without it, which is what it would return.
 * test/unit/render/lazy-globals.test.ts holds this against Intl.Segmenter for every such character.
 */
export function lazyGraphemeSegmenter(make: () => Intl.Segmenter): Intl.Segmenter {
  let real: Intl.Segmenter | undefined;
  const segmenter = () => (real ??= make());
  return {
    segment(input: string) {
      for (let index = 0; index < input.length; index++) {
        if (!isOwnGrapheme(input.charCodeAt(index))) return segmenter().segment(input);
      }
      return singleCharacterSegments(input) as unknown as Intl.Segments;
    },
    resolvedOptions: () => segmenter().resolvedOptions(),
  } as Intl.Segmenter;
}
