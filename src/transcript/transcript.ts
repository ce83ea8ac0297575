import type { ChatItem } from '../state/types';
import type { Theme } from '../terminal/theme';
import { TICK_MS } from './common';
import { highlighterGeneration } from './highlight';
import { attachesTo, isDrawn, layoutItem, type ItemContext } from './items';
import { chatStyles, type ChatStyles } from './style';

/**
 * The transcript as rows: each item is laid out once per (item, width, display options)
 * and kept; a frame walks back from the bottom and touches only the items that reach into the
 * viewport, so its cost follows the viewport, not the length of the conversation.
 */

export interface TranscriptOptions {
  theme: Theme;
  reasoningCollapsed: boolean;
  expandedIds: ReadonlySet<string>;
  /** Clock for spinners and elapsed times (ms); defaults to Date.now(). */
  now?: number;
}

interface Entry {
  /**
   * The item laid out. Items are immutable, so the same object means the same content; an id alone
   * is not enough: call ids such as `call_0` come back after `:clear` or in another session.
   */
  item: ChatItem;
  width: number;
  styles: ChatStyles;
  collapsed: boolean;
  expanded: boolean;
  waiting: boolean;
  generation: number;
  clock: boolean;
  tick: number;
  lines: string[];
}

export interface CacheStats {
  /** Items laid out (cache misses). */
  layouts: number;
  hits: number;
}

/** A row of the transcript identified by its item and its index within the item's rows (separator included). */
export interface Anchor {
  id: string;
  row: number;
}

export interface TranscriptWindow {
  /** Rows top to bottom, at most `height`; fewer when the transcript is shorter. */
  rows: string[];
  /** Lines below the window after clamping (0 = following the bottom). */
  offset: number;
  /** The bottom row of the window, to keep the view still while output arrives below. */
  anchor?: Anchor;
  /** Some visible row shows a spinner or an elapsed time. */
  clock: boolean;
  /** The walk reached the first item: `total` is exact. */
  total?: number;
}

export class TranscriptCache {
  private entries = new Map<string, Entry>();
  private pruneAt = 1024;
  readonly stats: CacheStats = { layouts: 0, hits: 0 };

  /** The rows of one item; laid out only when something it depends on changed. */
  lines(item: ChatItem, width: number, options: TranscriptOptions, styles: ChatStyles, anyClock = false): Entry {
    const now = options.now ?? Date.now();
    const tick = Math.floor(now / TICK_MS);
    const expanded = options.expandedIds.has(item.id);
    const collapsed = options.reasoningCollapsed;
    const entry = this.entries.get(item.id);
    if (
      entry &&
      entry.item === item &&
      entry.width === width &&
      entry.styles === styles &&
      entry.expanded === expanded &&
      (entry.collapsed === collapsed || item.kind !== 'assistant' || item.reasoning.length === 0) &&
      (!entry.waiting || entry.generation === highlighterGeneration()) &&
      (!entry.clock || anyClock || entry.tick === tick)
    ) {
      this.stats.hits++;
      return entry;
    }
    const context: ItemContext = { styles, reasoningCollapsed: collapsed, expanded, now };
    const layout = layoutItem(item, width, context);
    this.stats.layouts++;
    const fresh: Entry = {
      item,
      width,
      styles,
      collapsed,
      expanded,
      waiting: layout.waitingForHighlighter,
      generation: highlighterGeneration(),
      clock: layout.clock,
      tick,
      lines: layout.lines,
    };
    this.entries.set(item.id, fresh);
    return fresh;
  }

  /** Drops entries of items that left the transcript (after a clear), when the cache has grown. */
  prune(items: readonly ChatItem[]): void {
    if (this.entries.size < this.pruneAt) return;
    const live = new Set(items.map((item) => item.id));
    for (const id of this.entries.keys()) if (!live.has(id)) this.entries.delete(id);
    this.pruneAt = Math.max(1024, this.entries.size * 2);
  }

  clear(): void {
    this.entries.clear();
  }
}

/** The cache the app shares between ChatView and measureTranscript. */
export const sharedTranscriptCache = new TranscriptCache();

function previousDrawn(items: readonly ChatItem[], from: number): number {
  let index = from;
  while (index >= 0 && !isDrawn(items[index]!)) index--;
  return index;
}

const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;
/** A number standing for an object's identity (options objects are compared by identity). */
function objectId(value: object): number {
  let id = objectIds.get(value);
  if (id === undefined) {
    id = ++nextObjectId;
    objectIds.set(value, id);
  }
  return id;
}

const totals = new WeakMap<readonly ChatItem[], { key: string; total: number }>();

/**
 * Total rows of the transcript at `width` (blank separators included), for clamping the scroll
 * offset. Each item is laid out at most once per width and options; repeated calls with the same
 * items array are free.
 */
export function measureTranscript(items: readonly ChatItem[], width: number, options: TranscriptOptions, cache: TranscriptCache = sharedTranscriptCache): number {
  const styles = chatStyles(options.theme);
  const key = `${width}|${objectId(styles)}|${objectId(options.expandedIds)}|${options.reasoningCollapsed}|${highlighterGeneration()}`;
  const known = totals.get(items);
  if (known && known.key === key && cache === sharedTranscriptCache) return known.total;
  let total = 0;
  let drawnAbove = false;
  let previous: ChatItem | undefined;
  for (const item of items) {
    if (!isDrawn(item)) continue;
    const rows = cache.lines(item, width, options, styles, true).lines.length;
    total += rows + (drawnAbove && previous && !attachesTo(previous, item) ? 1 : 0);
    drawnAbove = true;
    previous = item;
  }
  if (cache === sharedTranscriptCache) totals.set(items, { key, total });
  cache.prune(items);
  return total;
}

interface Chunk {
  id: string;
  lines: string[];
  separator: boolean;
  clock: boolean;
}

function chunkSize(chunk: Chunk): number {
  return chunk.lines.length + (chunk.separator ? 1 : 0);
}

/** Row `index` of a chunk counted from its top, separator first. */
function chunkRow(chunk: Chunk, index: number): string {
  if (chunk.separator) return index === 0 ? '' : chunk.lines[index - 1]!;
  return chunk.lines[index]!;
}

/**
 * The rows of the viewport. `scrollOffset` counts lines up from the bottom; with `anchor` (the
 * bottom row of the previous frame) the view stays on that row while output arrives below.
 */
export function transcriptWindow(
  items: readonly ChatItem[],
  width: number,
  height: number,
  scrollOffset: number,
  options: TranscriptOptions,
  anchor?: Anchor,
  cache: TranscriptCache = sharedTranscriptCache,
): TranscriptWindow {
  const styles = chatStyles(options.theme);
  const chunks: Chunk[] = [];
  let collected = 0;
  let offset = Math.max(0, scrollOffset);
  let anchorPending = anchor !== undefined;
  let index = previousDrawn(items, items.length - 1);
  while (index >= 0 && (anchorPending || collected < offset + height)) {
    const item = items[index]!;
    const entry = cache.lines(item, width, options, styles);
    const above = previousDrawn(items, index - 1);
    const chunk: Chunk = { id: item.id, lines: entry.lines, separator: above >= 0 && !attachesTo(items[above]!, item), clock: entry.clock };
    if (anchorPending && anchor && item.id === anchor.id) {
      const size = chunkSize(chunk);
      offset = collected + (size - 1 - Math.min(anchor.row, size - 1));
      anchorPending = false;
    }
    chunks.push(chunk);
    collected += chunkSize(chunk);
    index = above;
  }
  const reachedTop = index < 0;
  // Cheap unless the cache has grown well past the transcript (items removed by a clear).
  cache.prune(items);
  if (reachedTop) offset = Math.min(offset, Math.max(0, collected - height));

  // Walk the chunks from the bottom: skip `offset` rows, take `height`.
  const rows: string[] = [];
  let clock = false;
  let skip = offset;
  let windowAnchor: Anchor | undefined;
  for (const chunk of chunks) {
    const size = chunkSize(chunk);
    if (skip >= size) {
      skip -= size;
      continue;
    }
    let row = size - 1 - skip;
    skip = 0;
    if (!windowAnchor) windowAnchor = { id: chunk.id, row };
    if (chunk.clock) clock = true;
    for (; row >= 0 && rows.length < height; row--) rows.push(chunkRow(chunk, row));
    if (rows.length >= height) break;
  }
  rows.reverse();
  return { rows, offset, anchor: windowAnchor, clock, total: reachedTop ? collected : undefined };
}
