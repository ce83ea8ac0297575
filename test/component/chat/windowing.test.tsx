import { describe, expect, it } from 'vitest';
import { measureTranscript, TranscriptCache, transcriptWindow } from '../../../src/transcript/transcript';
import type { ChatItem } from '../../../src/state/types';
import { assistant, colourTheme, renderView, rowsOf, tool, user, widestRow } from './helpers';

/** A conversation of `count` messages, each one row at width 80. */
function history(count: number): ChatItem[] {
  return Array.from({ length: count }, (_, index) => (index % 2 === 0 ? user(`question ${index}`) : assistant(`answer **${index}**`)));
}

const options = { theme: colourTheme, reasoningCollapsed: false, expandedIds: new Set<string>() };

describe('windowed transcript', () => {
  it('renders only the rows of the viewport, newest at the bottom', () => {
    const items = history(500);
    const view = renderView(items, { height: 10 });
    const rows = rowsOf(view.lastFrame());
    expect(rows).toHaveLength(10);
    expect(rows[9]).toBe('answer 499');
    expect(rows[7]).toBe('› question 498');
    expect(view.text()).not.toContain('question 0');
  });

  it('lays out only the items that reach into the viewport', () => {
    const cache = new TranscriptCache();
    renderView(history(2000), { height: 10, cache });
    // 10 rows hold 5 one-row items and their separators (plus one above, for the separator).
    expect(cache.stats.layouts).toBeLessThanOrEqual(7);
  });

  it('re-lays out only the streaming message on each frame, however long the conversation', () => {
    const cache = new TranscriptCache();
    const items = history(2000);
    let streaming = assistant('', { streaming: true });
    const view = renderView([...items, streaming], { height: 20, cache });
    const afterFirstFrame = cache.stats.layouts;
    for (let frame = 1; frame <= 50; frame++) {
      streaming = { ...streaming, text: `${streaming.text}word${frame} `, version: frame };
      view.update({ items: [...items, streaming] });
    }
    expect(cache.stats.layouts - afterFirstFrame).toBe(50);
    expect(view.text()).toContain('word50');
  });

  it('an item that reuses an id (a call id after :clear) is laid out anew, never drawn from the old one', () => {
    const cache = new TranscriptCache();
    const first = tool({ id: 'call_0', args: { expression: '1+1' }, state: 'done', result: 'two' });
    const view = renderView([user('calculate 1+1'), first], { height: 20, cache });
    expect(view.text()).toContain('1+1');
    // Same id and version, other content: what `:clear` followed by a new call produces.
    const second = tool({ id: 'call_0', args: { expression: '2+2' }, state: 'done', result: 'four' });
    view.update({ items: [user('calculate 2+2'), second] });
    expect(view.text()).toContain('2+2');
    expect(view.text()).toContain('four');
    expect(view.text()).not.toContain('1+1');
  });

  it('serves unchanged items from the cache', () => {
    const cache = new TranscriptCache();
    const items = history(30);
    const view = renderView(items, { height: 20, cache });
    const { layouts, hits } = cache.stats;
    view.update({ items: [...items] });
    expect(cache.stats.layouts).toBe(layouts);
    expect(cache.stats.hits).toBeGreaterThan(hits);
  });

  it('lays items out again when the width changes, and nothing is wider than the new width', () => {
    const cache = new TranscriptCache();
    const items = [user('a question that needs a few words to wrap on a narrow terminal'), assistant('and an answer with **bold** words that wrap as well when narrow')];
    const view = renderView(items, { width: 80, height: 20, cache });
    const before = cache.stats.layouts;
    view.update({ width: 20 });
    expect(cache.stats.layouts).toBe(before + 2);
    expect(widestRow(view.lastFrame())).toBeLessThanOrEqual(20);
    expect(view.text()).toContain('narrow terminal');
  });

  it('measures the whole transcript once, then answers from the cache', () => {
    const cache = new TranscriptCache();
    const items = history(200);
    const total = measureTranscript(items, 80, options, cache);
    expect(total).toBe(200 * 2 - 1);
    const layouts = cache.stats.layouts;
    expect(measureTranscript(items, 80, options, cache)).toBe(total);
    expect(cache.stats.layouts).toBe(layouts);
    const all = transcriptWindow(items, 80, 10_000, 0, options, undefined, cache);
    expect(all.rows).toHaveLength(total);
    expect(all.total).toBe(total);
  });

  it('scrolls by lines up from the bottom and says how much is below', () => {
    const items = history(40);
    const view = renderView(items, { height: 6, scrollOffset: 3 });
    const rows = rowsOf(view.lastFrame());
    expect(rows).toHaveLength(6);
    // The top moved up 3 rows and the marker takes the bottom one: 4 rows below the window,
    // "answer 39", "", "› question 38", "".
    expect(rows[0]).toBe('answer 35');
    expect(rows[4]).toBe('answer 37');
    expect(rows[5]).toBe('↓ 4 lines below');
  });

  it('stops at the top when scrolled past it', () => {
    const items = history(6);
    const seen: number[] = [];
    const view = renderView(items, { height: 5, scrollOffset: 500, onScrollOffsetChange: (offset) => seen.push(offset) });
    const rows = rowsOf(view.lastFrame());
    expect(rows[0]).toBe('› question 0');
    // 11 rows in all, 5 on screen: the top is 6 rows above the bottom view's top.
    expect(seen).toEqual([6]);
  });

  it('shows "↓ new output" when output arrives below a scrolled-up view, until back at the bottom', () => {
    const items = history(40);
    const view = renderView(items, { height: 8, scrollOffset: 10 });
    expect(view.text()).not.toContain('new output');
    view.update({ items: [...items, user('late arrival')] });
    expect(view.text()).toContain('↓ new output');
    view.update({ scrollOffset: 0 });
    expect(view.text()).not.toContain('new output');
    expect(view.text()).toContain('late arrival');
    view.update({ scrollOffset: 3 });
    expect(view.text()).not.toContain('new output');
  });

  it('keeps a scrolled-up view still while output arrives below, when the parent takes the new offset', () => {
    const items = history(40);
    const reported: number[] = [];
    const view = renderView(items, { height: 8, scrollOffset: 10, onScrollOffsetChange: (offset) => reported.push(offset) });
    const before = rowsOf(view.lastFrame()).slice(0, 7);
    let streaming = assistant('one', { streaming: true });
    view.update({ items: [...items, streaming] });
    expect(reported).toEqual([12]);
    view.update({ scrollOffset: 12 });
    streaming = { ...streaming, text: 'one\n\ntwo\n\nthree', version: 1 };
    view.update({ items: [...items, streaming] });
    expect(reported).toEqual([12, 16]);
    view.update({ scrollOffset: 16 });
    expect(rowsOf(view.lastFrame()).slice(0, 7)).toEqual(before);
    // 16 lines up, plus the row under the marker.
    expect(view.text()).toContain('↓ new output · 17 lines below');
  });

  it('follows new output at the bottom', () => {
    const items = history(40);
    const view = renderView(items, { height: 5 });
    view.update({ items: [...items, user('newest')] });
    expect(rowsOf(view.lastFrame())[4]).toBe('› newest');
  });

  it('shows a hint when there is nothing to show', () => {
    expect(renderView([]).text()).toContain('Type a message and press Enter');
  });
});
