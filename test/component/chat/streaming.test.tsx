import { beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../../src/transcript/highlight';
import { layoutItem } from '../../../src/transcript/items';
import { streamingStats } from '../../../src/transcript/streaming';
import { completeStreamingTail } from '../../../src/transcript/streamingTail';
import { chatStyles } from '../../../src/transcript/style';
import type { ChatItem } from '../../../src/state/types';
import { assistant, colourTheme, renderView, stripSgr } from './helpers';

beforeAll(async () => {
  await loadHighlighter();
});

const DOCUMENT = [
  '# Plan',
  '',
  'First paragraph with **bold** text and `code`,',
  'continued on a second line.',
  '',
  'Setext heading',
  '--------------',
  '',
  '- item one',
  '- item two',
  '',
  '- item three after a blank line (same loose list)',
  '',
  '1. first',
  '2. second',
  '',
  '```ts',
  'const a = 1;',
  '',
  'function f() {',
  '  return a;',
  '}',
  '```',
  '',
  '| h1 | h2 |',
  '|----|----|',
  '| c1 | c2 |',
  '',
  '> quoted',
  'lazy continuation',
  '',
  '    indented code',
  '',
  '    more indented code',
  '',
  'Final words.',
].join('\n');

const ctx = (id: string) => ({ styles: chatStyles(colourTheme), reasoningCollapsed: false, expanded: false, now: 0, id });

function layout(item: ChatItem, width: number): string[] {
  return layoutItem(item, width, ctx(item.id)).lines;
}

describe('streaming answers', () => {
  it('renders an unclosed fence as code while it streams', () => {
    const view = renderView([assistant('Look:\n\n```js\nconst x = 1;\nlet y', { streaming: true })]);
    const raw = view.lastFrame() ?? '';
    expect(stripSgr(raw)).toContain('  const x = 1;');
    expect(stripSgr(raw)).toContain('  let y');
    expect(stripSgr(raw)).not.toContain('```');
    expect(raw).toMatch(/\x1b\[35mconst/);
  });

  it('lays out every prefix of a stream exactly as the whole text would be laid out', () => {
    for (const width of [80, 33]) {
      const id = `stream-${width}`;
      for (let end = 1; end <= DOCUMENT.length; end++) {
        const text = DOCUMENT.slice(0, end);
        const streamed = layout({ kind: 'assistant', id, version: end, text, reasoning: '', streaming: true }, width);
        // The same text in one piece, with the streaming tail's dangling markers completed likewise.
        const wholeText = completeStreamingTail(text);
        const whole = layout({ kind: 'assistant', id: `${id}-whole-${end}`, version: 0, text: wholeText, reasoning: '', streaming: false }, width);
        expect(streamed, `prefix of ${end} characters at width ${width}`).toEqual(whole);
      }
    }
  });

  it('re-lexes only the text after the finished blocks', () => {
    const paragraphs = Array.from({ length: 40 }, (_, index) => `Paragraph ${index} says something useful.`).join('\n\n');
    const before = streamingStats.relexedChars;
    let sumOfPrefixes = 0;
    for (let end = 10; end <= paragraphs.length; end += 10) {
      layout({ kind: 'assistant', id: 'relex', version: end, text: paragraphs.slice(0, end), reasoning: '', streaming: true }, 80);
      sumOfPrefixes += end;
    }
    const relexed = streamingStats.relexedChars - before;
    // Lexing each frame's whole text would read every prefix; the tail is a block or two.
    expect(relexed).toBeLessThan(sumOfPrefixes / 20);
  });

  it('settles on the full layout when the stream ends', () => {
    const item = assistant(DOCUMENT.slice(0, 200), { streaming: true });
    const view = renderView([item]);
    view.update({ items: [{ ...item, text: DOCUMENT, streaming: false, version: 1 }] });
    const whole = renderView([assistant(DOCUMENT)]);
    expect(view.text()).toBe(whole.text());
  });

  it('streams reasoning, then the answer below it', () => {
    let item = assistant('', { streaming: true, reasoning: 'thinking about' });
    const view = renderView([item]);
    expect(view.text()).toContain('thinking about');
    item = { ...item, reasoning: 'thinking about it\nsecond line', version: 1 };
    view.update({ items: [item] });
    item = { ...item, text: 'Answer **now**', version: 2 };
    view.update({ items: [item] });
    const rows = view.text().split('\n').filter((row) => row.trim().length > 0);
    expect(rows).toEqual(['▾ reasoning', '  thinking about it', '  second line', 'Answer now']);
  });

  it('shows a placeholder while an answer has started but has no text yet', () => {
    expect(renderView([assistant('', { streaming: true })]).text()).toContain('…');
  });
});
