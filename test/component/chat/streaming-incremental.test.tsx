import { beforeAll, describe, expect, it } from 'vitest';
import { growingCodeStats } from '../../../src/transcript/growingCode';
import { highlightCode, loadHighlighter } from '../../../src/transcript/highlight';
import { layoutItem } from '../../../src/transcript/items';
import { completeStreamingTail } from '../../../src/transcript/streamingTail';
import { chatStyles } from '../../../src/transcript/style';
import { sanitize } from '../../../src/services/terminal/sanitize';
import type { ChatItem } from '../../../src/state/types';
import { colourTheme, plainTheme, stripSgr } from './helpers';

beforeAll(async () => {
  await loadHighlighter();
});

const TYPESCRIPT = [
  'import { readFile } from "node:fs/promises";',
  '',
  '/**',
  ' * Reads a config file.',
  ' * @param path where it is',
  ' */',
  'export async function load(path: string, retries = 3): Promise<Config> {',
  '  const text = await readFile(path, "utf8"); // may throw',
  '  const parsed = JSON.parse(text) as Partial<Config>;',
  '  const banner = `loaded ${path} with ${Object.keys(parsed).length} keys',
  '    over two lines`;',
  '  if (!parsed.name || /^\\s*$/.test(parsed.name)) {',
  '    throw new Error(`no name in ${path}`);',
  '  }',
  '  class Holder<T> extends Base implements Thing {',
  '    constructor(private readonly value: T) { super(); }',
  '  }',
  '  return { ...defaults, ...parsed, retries: retries * 2 + 0x1f } satisfies Config;',
  '}',
].join('\n');

const PYTHON = [
  'import sys',
  '',
  '@dataclass',
  'class Point:',
  '    """A point,',
  '    with a docstring over lines."""',
  '    x: float = 0.0',
  '',
  '    def norm(self, p=2):',
  "        return (abs(self.x) ** p) ** (1 / p)  # comment",
  '',
  "print(f'{Point(3).norm():.2f}', file=sys.stderr)",
].join('\n');

/** An answer with every kind of block, code in several languages, and hostile characters. */
const ANSWER = [
  '# Loading **configs**',
  '',
  'A paragraph with *emphasis*, `code`, a [link](https://example.com) and a tab\there,',
  'continued on a second line.\r\nWindows line ending above.',
  '',
  '```ts',
  TYPESCRIPT,
  '```',
  '',
  '- step one',
  '- step **two**:',
  '  ```bash',
  '  npm install --save-dev "pkg@1" # note',
  '  echo $HOME',
  '  ```',
  '- step three',
  '',
  '```python',
  PYTHON,
  '```',
  '',
  '| key | value |',
  '|-----|------:|',
  '| a | 1 |',
  '',
  '> quoted `text`',
  '',
  '```',
  'no language at all, 2 * 3',
  '   indented',
  '```',
  '',
  '~~~json',
  '{"a": [1, true, null], "b": {"c": "d"}}',
  '~~~',
  '',
  'Escapes: \x1b[31mred\x1b[0m and \u202eevil and done.',
].join('\n');

/** Deterministic pseudo-random numbers, so a failure names a reproducible cut. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function layout(item: ChatItem, width: number, theme = colourTheme): string[] {
  return layoutItem(item, width, { styles: chatStyles(theme), reasoningCollapsed: false, expanded: false, now: 0 }).lines;
}

let streams = 0;

/** Streams `text` in random pieces and checks every frame against a layout of the whole prefix. */
function checkStream(text: string, width: number, seed: number, maxPiece: number, theme = colourTheme): number {
  const next = random(seed);
  const id = `incremental-${++streams}`;
  let end = 0;
  let frames = 0;
  while (end < text.length) {
    end = Math.min(text.length, end + 1 + Math.floor(next() * maxPiece));
    const prefix = text.slice(0, end);
    const streamed = layout({ kind: 'assistant', id, version: end, text: prefix, reasoning: '', streaming: true }, width, theme);
    // The whole prefix in one piece, its dangling inline markers completed as the stream shows them.
    const whole = layout({ kind: 'assistant', id: `${id}-whole-${end}`, version: 0, text: completeStreamingTail(sanitize(prefix)), reasoning: '', streaming: false }, width, theme);
    expect(streamed, `seed ${seed}, width ${width}, after ${JSON.stringify(prefix.slice(-40))}`).toEqual(whole);
    frames++;
  }
  const finished = layout({ kind: 'assistant', id, version: end + 1, text, reasoning: '', streaming: false }, width, theme);
  expect(finished).toEqual(layout({ kind: 'assistant', id: `${id}-final`, version: 0, text, reasoning: '', streaming: false }, width, theme));
  return frames;
}

describe('incremental layout of a streaming answer', () => {
  it('gives the rows of the whole-prefix layout on every frame, for random splits and widths', () => {
    for (const [seed, width, maxPiece] of [
      [1, 80, 12],
      [2, 80, 40],
      [3, 41, 6],
      [4, 23, 25],
      [5, 120, 3],
      [6, 9, 17],
    ] as const) {
      expect(checkStream(ANSWER, width, seed, maxPiece)).toBeGreaterThan(ANSWER.length / (maxPiece + 1) - 1);
    }
  });

  it('does the same without colour (plain code, no grammar)', () => {
    checkStream(ANSWER, 60, 7, 20, plainTheme);
  });

  it('colours each line of a growing code block exactly as highlighting the whole block does', () => {
    const palette = chatStyles(colourTheme).code;
    for (const [language, code] of [
      ['ts', TYPESCRIPT],
      ['python', PYTHON],
    ] as const) {
      const text = `\`\`\`${language}\n${code}\n\`\`\``;
      checkStream(text, 100, 11, 5);
      // The comparison above would pass with no colour at all if highlighting were off.
      expect(highlightCode(code, language, palette).highlighted).toBe(true);
    }
  });

  it('highlights only the newest lines of an open code block, not the whole block on every frame', () => {
    const lines = Array.from({ length: 200 }, (_, index) => `  const value${index} = compute(${index}, "label ${index}"); // step ${index}`);
    const code = lines.join('\n');
    const text = `Here is the file:\n\n\`\`\`ts\nfunction big() {\n${code}\n}\n\`\`\``;
    const before = growingCodeStats.highlightedChars;
    const id = 'big-block';
    let frames = 0;
    for (let end = 40; end <= text.length; end += 9) {
      layout({ kind: 'assistant', id, version: end, text: text.slice(0, end), reasoning: '', streaming: true }, 100);
      frames++;
    }
    const highlighted = growingCodeStats.highlightedChars - before;
    // Highlighting the block again on every frame would read about frames * length / 2 characters
    // (here over 600 times the code); keeping finished lines reads each line on the few frames
    // while it is one of the last two.
    expect(frames).toBeGreaterThan(1000);
    expect(highlighted).toBeLessThan(code.length * 20);
    // And the rows are still those of the whole block.
    const last = layout({ kind: 'assistant', id, version: -1, text, reasoning: '', streaming: true }, 100);
    expect(last).toEqual(layout({ kind: 'assistant', id: 'big-block-whole', version: 0, text, reasoning: '', streaming: false }, 100));
    expect(stripSgr(last.at(-1) ?? '')).toBe('  }');
  });

  it('sanitizes a stream line by line exactly as the whole text, whatever the split', () => {
    const hostile = 'one\r\ntwo\r\n\tthree\x1b]52;c;aGk=\x07 four\r\n\u202eright-to-left\u200b\nfive\x9b31m';
    for (let cut = 0; cut <= hostile.length; cut++) {
      const id = `hostile-${cut}`;
      layout({ kind: 'assistant', id, version: 0, text: hostile.slice(0, cut), reasoning: '', streaming: true }, 80);
      const streamed = layout({ kind: 'assistant', id, version: 1, text: hostile, reasoning: '', streaming: true }, 80);
      const whole = layout({ kind: 'assistant', id: `${id}-whole`, version: 0, text: completeStreamingTail(sanitize(hostile)), reasoning: '', streaming: false }, 80);
      expect(streamed, `cut at ${cut}`).toEqual(whole);
      expect(streamed.join('\n')).not.toMatch(/[\x07\x1b\x9b\u202e]/u);
    }
  });

  it('starts over when the text is replaced rather than extended', () => {
    const id = 'replaced';
    layout({ kind: 'assistant', id, version: 0, text: '```ts\nconst a = 1;\nconst b = 2;\n', reasoning: '', streaming: true }, 80);
    const replaced = '```py\nx = "a"\n';
    const streamed = layout({ kind: 'assistant', id, version: 1, text: replaced, reasoning: '', streaming: true }, 80);
    expect(streamed).toEqual(layout({ kind: 'assistant', id: 'replaced-whole', version: 0, text: replaced, reasoning: '', streaming: false }, 80));
  });
});
