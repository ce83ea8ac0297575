import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../../src/transcript/highlight';
import { assistant, colourTheme, plainTheme, renderView, rowsOf, stripSgr, widestRow } from './helpers';

beforeAll(async () => {
  await loadHighlighter();
});

function show(markdown: string, width = 80, theme = colourTheme) {
  const view = renderView([assistant(markdown)], { width, height: 60, theme });
  const rows = rowsOf(view.lastFrame()).map((row) => row.trimEnd());
  // The view is bottom-anchored: drop the empty rows above a short transcript.
  while (rows.length > 0 && rows[0] === '') rows.shift();
  return { raw: view.lastFrame() ?? '', text: view.text(), rows };
}

describe('markdown in answers', () => {
  it('draws headings without their hashes, in bold', () => {
    const { raw, text } = show('# Title\n\n## Section\n\n### Detail\n\nbody');
    expect(text).toContain('Title');
    expect(text).toContain('Section');
    expect(text).toContain('Detail');
    expect(text).not.toContain('#');
    expect(raw).toMatch(/\x1b\[1m(\x1b\[[0-9;]*m)*Title/);
  });

  it('styles emphasis, strong, strike-through and code spans, and drops their markers', () => {
    const { raw, text } = show('an *em* and **strong** and ~~gone~~ and `x<y`');
    expect(text).toContain('an em and strong and gone and x<y');
    expect(raw).toMatch(/\x1b\[3m(\x1b\[[0-9;]*m)*em/);
    expect(raw).toMatch(/\x1b\[1m(\x1b\[[0-9;]*m)*strong/);
    expect(raw).toMatch(/\x1b\[9m(\x1b\[[0-9;]*m)*gone/);
  });

  it('keeps backticks around code spans when there is no colour to set them apart', () => {
    expect(show('run `npm test` now', 80, plainTheme).text).toContain('run `npm test` now');
  });

  it('shows links as their text followed by the URL, autolinks once', () => {
    const { text } = show('see [the docs](https://example.com/docs) or <https://example.org>');
    expect(text).toContain('see the docs (https://example.com/docs) or https://example.org');
    expect(text).not.toContain('https://example.org (');
  });

  it('draws bullet lists, nested ordered lists with their numbers, and task boxes', () => {
    const { rows } = show('- apples\n- pears\n  1. green\n  2. red\n- [x] done\n- [ ] todo\n\n3. three\n4. four');
    expect(rows).toContain('• apples');
    expect(rows).toContain('• pears');
    expect(rows).toContain('  1. green');
    expect(rows).toContain('  2. red');
    expect(rows).toContain('• ☒ done');
    expect(rows).toContain('• ☐ todo');
    expect(rows).toContain('3. three');
    expect(rows).toContain('4. four');
  });

  it('wraps list items with a hanging indent under their text', () => {
    const { rows } = show('- one two three four five six seven eight', 20);
    expect(rows.slice(0, 3)).toEqual(['• one two three four', '  five six seven', '  eight']);
  });

  it('draws block quotes behind a bar, nested content included', () => {
    const { rows } = show('> quoted **text**\n> - item');
    expect(rows).toContain('│ quoted text');
    expect(rows).toContain('│ • item');
  });

  it('draws tables with aligned columns', () => {
    const { rows } = show('| name | n |\n|------|--:|\n| alpha | 1 |\n| beta | 100 |');
    expect(rows).toContain('name  │   n');
    expect(rows).toContain('──────┼────');
    expect(rows).toContain('alpha │   1');
    expect(rows).toContain('beta  │ 100');
  });

  it('fits wide tables to the width by wrapping cells', () => {
    const long = 'a very long cell text that cannot possibly fit on one row of a narrow terminal';
    const { raw, text } = show(`| key | description |\n|---|---|\n| k1 | ${long} |`, 40);
    expect(widestRow(raw)).toBeLessThanOrEqual(40);
    expect(text.replace(/\s*│\s*/g, ' ').replace(/\s+/g, ' ')).toContain('possibly');
    expect(rowsOf(raw).filter((row) => row.includes('│')).length).toBeGreaterThan(3);
  });

  it('turns a table with too many columns for the width into key: value rows', () => {
    const { text, raw } = show('| a | b | c | d | e |\n|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 |', 12);
    expect(widestRow(raw)).toBeLessThanOrEqual(12);
    expect(text).toContain('a: 1');
    expect(text).toContain('e: 5');
  });

  it('draws horizontal rules across the width', () => {
    const { rows } = show('above\n\n---\n\nbelow', 30);
    expect(rows).toContain('─'.repeat(30));
  });

  it('highlights fenced code with colours for a known language', () => {
    const { raw, text } = show('```js\nconst answer = 42; // yes\n```');
    expect(text).toContain('const answer = 42; // yes');
    expect(raw).toMatch(/\x1b\[35mconst/);
    expect(raw).toMatch(/\x1b\[33m42/);
  });

  it('draws code in an unknown language, or without one, plain', () => {
    const unknown = show('```nosuchlang\nconst answer = 42;\n```').raw;
    const none = show('```\nconst answer = 42;\n```').raw;
    for (const raw of [unknown, none]) {
      expect(stripSgr(raw)).toContain('const answer = 42;');
      expect(raw).not.toMatch(/\x1b\[3[0-7]m/);
    }
  });

  it('uses no colour at all under NO_COLOR, highlighting included', () => {
    const { raw, text } = show('# T\n\n```js\nconst a = 1;\n```\n\n[l](http://x) `c`', 80, plainTheme);
    expect(text).toContain('const a = 1;');
    expect(raw).not.toMatch(/\x1b\[(3[0-9]|9[0-7]|38;)/);
  });

  it('wraps code rows at the width without losing characters', () => {
    const code = 'x'.repeat(50);
    const { raw, text } = show('```\n' + code + '\n```', 24);
    expect(widestRow(raw)).toBeLessThanOrEqual(24);
    expect(text.replace(/[\s]/g, '')).toContain(code);
  });

  it('decodes the basic entities but never turns a character reference into a control character', () => {
    const { raw, text } = show('fish &amp; chips &#27;[31m red &#x9b;2J');
    expect(text).toContain('fish & chips');
    expect(raw).not.toMatch(/\x1b(?!\[[0-9;]*m)/);
    expect(raw).not.toMatch(/[\x80-\x9f]/);
    expect(text).toContain('\\x1b[31m');
  });

  it('shows code spans and code blocks literally: an entity there is its characters', () => {
    const { text } = show('use `a &amp;&amp; b` here\n\n```html\n<p>fish &amp; chips &lt;3</p>\n```');
    expect(text).toContain('a &amp;&amp; b');
    expect(text).toContain('<p>fish &amp; chips &lt;3</p>');
  });
});
