import { build } from 'esbuild';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazifyModuleGlobals } from '../../../scripts/lazy-globals.mjs';
import { lazyGraphemeSegmenter, lazyValue } from '../../../src/terminal/lazy-globals';
import { isNarrow, NARROW_RANGES } from '../../../src/terminal/narrow-width';

const root = path.resolve(import.meta.dirname, '../../..');
const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const plain = (segments: Iterable<{ segment: string; index: number }>) => Array.from(segments, ({ segment, index }) => ({ segment, index }));

function counted() {
  const made = { count: 0 };
  const segmenter = lazyGraphemeSegmenter(() => {
    made.count += 1;
    return new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  });
  return { made, segmenter };
}

describe('the grapheme segmenter made on first need', () => {
  it('splits one-column text and escapes as Intl.Segmenter does, without making one', () => {
    const { made, segmenter } = counted();
    const characters: string[] = ['\x1b'];
    // The few emoji-like characters in the ranges (©, ▶) are left to the real segmenter.
    for (const [from, to] of NARROW_RANGES) for (let code = from; code <= to; code++) if (isNarrow(code)) characters.push(String.fromCharCode(code));
    expect(characters.length).toBeGreaterThan(1000);
    // Each character between two letters, so a joining or combining one would show.
    for (const character of characters) {
      const text = `a${character}b${character}`;
      expect(plain(segmenter.segment(text)), JSON.stringify(text)).toEqual(plain(real.segment(text)));
    }
    const styled = '\x1b[1mMCP servers\x1b[22m ∙ ✓ ready';
    expect(plain(segmenter.segment(styled))).toEqual(plain(real.segment(styled)));
    expect(segmenter.segment(styled).containing(5)).toEqual(real.segment(styled).containing(5));
    expect(segmenter.segment(styled).containing(styled.length)).toBeUndefined();
    expect(made.count).toBe(0);
  });

  it('hands any other text to a real segmenter, made once', () => {
    const { made, segmenter } = counted();
    for (const text of ['👍🏽 ok', 'e\u0301', '日本語', 'a\r\nb']) {
      expect(plain(segmenter.segment(text))).toEqual(plain(real.segment(text)));
    }
    expect(made.count).toBe(1);
  });
});

describe('a value made on first use', () => {
  it('is not made until used, then behaves as the regex itself', () => {
    let made = 0;
    const regex = lazyValue(() => {
      made += 1;
      return /\p{Extended_Pictographic}/gu;
    });
    expect(made).toBe(0);
    expect('a👍b👍'.match(regex)).toEqual(['👍', '👍']);
    expect('ab👍'.search(regex)).toBe(2);
    expect('x👍'.replace(regex, '!')).toBe('x!');
    expect(regex.test('plain')).toBe(false);
    expect(regex.flags).toBe('gu');
    expect(made).toBe(1);
  });
});

describe('the build rewrite', () => {
  const stringWidthFile = path.join(root, 'node_modules/ink/node_modules/string-width/index.js');

  it('makes string-width\'s segmenter and emoji expression lazy', async () => {
    const source = await readFile(stringWidthFile, 'utf8');
    const rewritten = lazifyModuleGlobals(source, '/helpers.ts')!;
    expect(rewritten).toContain('const segmenter = __aishLazyGraphemeSegmenter(() => new Intl.Segmenter());');
    expect(rewritten).toContain('const rgiEmojiRegex = __aishLazyValue(() => /^\\p{RGI_Emoji}$/v);');
    expect(lazifyModuleGlobals('const x = 1;\nexport default x;\n', '/helpers.ts')).toBeUndefined();
    // CommonJS cannot take the import the rewrite adds.
    expect(lazifyModuleGlobals('const s = new Intl.Segmenter();\nmodule.exports = s;\n', '/helpers.ts')).toBeUndefined();
  });

  it('keeps string-width\'s answers once bundled', async () => {
    const helpers = path.join(root, 'src/terminal/lazy-globals.ts');
    const result = await build({
      entryPoints: [stringWidthFile],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
      plugins: [
        {
          name: 'lazy-globals',
          setup(builder) {
            builder.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, async (args) => {
              const contents = lazifyModuleGlobals(await readFile(args.path, 'utf8'), helpers);
              return contents === undefined ? undefined : { contents, loader: 'js', resolveDir: path.dirname(args.path) };
            });
          },
        },
      ],
    });
    const code = result.outputFiles[0]!.text;
    expect(code).toContain('lazyGraphemeSegmenter(() => new Intl.Segmenter())');
    const bundled = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { default: (text: string) => number };
    const original = (await import(stringWidthFile)) as { default: (text: string) => number };
    for (const text of ['plain', '› ∙ ✓', '👍🏽', '👨‍👩‍👧', '日本語', 'e\u0301', '\x1b[31mred\x1b[39m', '1\u20e3', '한국어']) {
      expect(bundled.default(text), JSON.stringify(text)).toBe(original.default(text));
    }
  });
});
