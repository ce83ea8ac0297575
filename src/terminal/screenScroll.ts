/**
 * Where the screen writer lets the terminal move rows instead of writing them again.
 *
 * When the transcript's rows moved between two frames (a streamed answer scrolling up, the region
 * growing or shrinking as the waiting line below it comes and goes), a scroll region (DECSTBM)
 * and SU/SD move them in the terminal for a few bytes. A scroll region always spans the whole
 * width, though, so the sidebar's rows beside it move too and must be written back where they
 * differ: its top border, title and server rows, and the bottom border, are the costliest rows on
 * screen (box-drawing characters are three bytes each). So the plan weighs bytes, not rows: for the
 * few shifts that save the most when everything scrolls, it picks the block of rows to scroll that
 * saves the most bytes over writing the rows where they are — typically the rows between the
 * sidebar's header and its bottom border — or no scroll at all.
 */

/** One screen row: `left` is the region's part (the whole line outside the region), `right` Ink's part after it. */
export interface Row {
  left: string;
  right: string;
  /** The column where `right` starts (the region's width), or -1 for a row outside the region. */
  cut: number;
}

/** Scroll rows `top`..`bottom` (0-based, inclusive) by `shift`: positive moves them up (SU), negative down (SD). */
export interface ScrollPlan {
  top: number;
  bottom: number;
  shift: number;
}

export function sameRow(a: Row | undefined, b: Row): boolean {
  return a !== undefined && a.cut === b.cut && a.left === b.left && a.right === b.right;
}

const BLANK: Row = { left: '', right: '', cut: -1 };
/** Cursor position, style reset and erase around a row's text, roughly. */
const ROW_OVERHEAD = 14;
/** A scroll: reset, DECSTBM, SU/SD, margins reset. */
const SCROLL_OVERHEAD = 16;
/** Shifts weighed in bytes, and shifts given a block of rows (see candidateShifts). */
const MATCHED_SHIFTS = 8;
const CANDIDATE_SHIFTS = 3;

/** Bytes the writer sends to turn `old` into `row` (mirrors ScreenWriter.render's three cases). */
function rowBytes(old: Row, row: Row, size: { left: number; right: number }): number {
  if (sameRow(old, row)) return 0;
  if (old.cut === row.cut && row.cut >= 0 && old.right === row.right) return ROW_OVERHEAD + size.left;
  if (old.cut === row.cut && row.cut >= 0 && old.left === row.left) return ROW_OVERHEAD + size.right;
  return ROW_OVERHEAD + size.left + (size.right > 0 ? 6 + size.right : 0);
}

/** How many rows from the top of `rows` belong to a region cut at `cut`. */
function regionRowsOf(rows: readonly Row[], cut: number): number {
  let count = 0;
  while (count < rows.length && rows[count]!.cut === cut) count++;
  return count;
}

/** Transcript rows that show the same text `shift` rows further down in `old` (up for a negative shift), blank rows aside. */
function matchesShifted(old: readonly Row[], rows: readonly Row[], shift: number): number {
  const span = old.length;
  const cut = rows[0]!.cut;
  let matches = 0;
  for (let row = Math.max(0, -shift); row < span && row + shift < span; row++) {
    const now = rows[row]!;
    const then = old[row + shift]!;
    if (now.cut === cut && then.cut === cut && now.left.length > 0 && now.left === then.left) matches++;
  }
  return matches;
}

/**
 * The shifts worth a closer look. Matching rows (string comparisons only) narrow every possible
 * shift down to a few; of those, the ones that save the most bytes when the whole span scrolls
 * win. Bytes, not matches, decide: text that repeats (list items, code braces, an answer's
 * sections) matches at wrong shifts as well, and only the true one also keeps the rows that differ.
 */
function candidateShifts(old: readonly Row[], rows: readonly Row[], sizes: ReadonlyArray<{ left: number; right: number }>, blankBytes: readonly number[], stayBytes: number): number[] {
  const span = old.length;
  const matching: Array<{ shift: number; matches: number }> = [];
  for (let distance = 1; distance < span; distance++) {
    for (const shift of [distance, -distance]) {
      const matches = matchesShifted(old, rows, shift);
      if (matches > 0) matching.push({ shift, matches });
    }
  }
  matching.sort((a, b) => b.matches - a.matches || Math.abs(a.shift) - Math.abs(b.shift));
  const scored: Array<{ shift: number; saving: number }> = [];
  for (const { shift } of matching.slice(0, MATCHED_SHIFTS)) {
    let after = 0;
    for (let row = 0; row < span && after < stayBytes; row++) {
      const source = row + shift;
      after += source >= 0 && source < span ? rowBytes(old[source]!, rows[row]!, sizes[row]!) : blankBytes[row]!;
    }
    if (after < stayBytes) scored.push({ shift, saving: stayBytes - after });
  }
  scored.sort((a, b) => b.saving - a.saving || Math.abs(a.shift) - Math.abs(b.shift));
  return scored.slice(0, CANDIDATE_SHIFTS).map((entry) => entry.shift);
}

/**
 * Whether any changed row would cost fewer bytes taken from another row of `old` than written where
 * it is. When none would, no scroll can save anything (rows scrolled in blank cost more still), and
 * the search below is skipped: this is most frames of a streamed answer, where only its last line
 * grew, and the search compares every row at every shift.
 */
function anyRowGains(old: readonly Row[], rows: readonly Row[], sizes: ReadonlyArray<{ left: number; right: number }>, stayBytes: readonly number[]): boolean {
  const span = old.length;
  for (let row = 0; row < span; row++) {
    const stay = stayBytes[row]!;
    if (stay === 0) continue;
    for (let source = 0; source < span; source++) {
      if (source !== row && rowBytes(old[source]!, rows[row]!, sizes[row]!) < stay) return true;
    }
  }
  return false;
}

function prefixSums(values: readonly number[]): number[] {
  const sums = [0];
  for (const value of values) sums.push(sums[sums.length - 1]! + value);
  return sums;
}

/**
 * The scroll that saves the most bytes when the screen shows `before` and must show `rows` (whose
 * top `regionHeight` rows are the transcript's), or undefined when writing the rows where they are
 * is as cheap.
 */
export function planScroll(before: readonly Row[], rows: readonly Row[], regionHeight: number): ScrollPlan | undefined {
  const cut = rows[0]?.cut ?? -1;
  if (regionHeight < 3 || cut < 0) return undefined;
  // Over the rows either frame gives the region: when it shrinks, the rows it gives up still
  // hold what scrolls into the rows it keeps.
  const span = Math.min(Math.max(regionHeight, regionRowsOf(before, cut)), rows.length);
  const old = Array.from({ length: span }, (_, row) => before[row] ?? BLANK);
  const sizes = rows.slice(0, span).map((row) => ({ left: Buffer.byteLength(row.left), right: Buffer.byteLength(row.right) }));
  const stayBytes = sizes.map((size, row) => rowBytes(old[row]!, rows[row]!, size));
  if (!anyRowGains(old, rows, sizes, stayBytes)) return undefined;
  const blankBytes = sizes.map((size, row) => rowBytes(BLANK, rows[row]!, size));
  const stay = prefixSums(stayBytes);
  const blank = prefixSums(blankBytes);
  const shifts = candidateShifts(old, rows, sizes, blankBytes, stay[span]!);
  if (shifts.length === 0) return undefined;
  let best: ScrollPlan | undefined;
  let bestSaving = SCROLL_OVERHEAD;
  for (const shift of shifts) {
    const distance = Math.abs(shift);
    // Row r showing what was at r + shift; rows it cannot take from cost 0 here and are never used.
    const moved = prefixSums(sizes.map((size, row) => (row + shift >= 0 && row + shift < span ? rowBytes(old[row + shift]!, rows[row]!, size) : 0)));
    for (let top = 0; top < span; top++) {
      for (let bottom = top + distance; bottom < span; bottom++) {
        // Up: rows top..bottom-distance take the rows below them, the last `distance` come in blank.
        // Down: rows top+distance..bottom take the rows above them, the first `distance` come in blank.
        const after =
          shift > 0
            ? moved[bottom - distance + 1]! - moved[top]! + blank[bottom + 1]! - blank[bottom - distance + 1]!
            : moved[bottom + 1]! - moved[top + distance]! + blank[top + distance]! - blank[top]!;
        const saving = stay[bottom + 1]! - stay[top]! - after;
        if (saving > bestSaving) {
          bestSaving = saving;
          best = { top, bottom, shift };
        }
      }
    }
  }
  return best;
}

/** What the screen shows after `plan` was applied to a screen showing `before`. */
export function scrolled(before: readonly Row[], plan: ScrollPlan): Row[] {
  const after = [...before];
  for (let row = plan.top; row <= plan.bottom; row++) {
    const source = row + plan.shift;
    after[row] = source >= plan.top && source <= plan.bottom ? (before[source] ?? BLANK) : BLANK;
  }
  return after;
}

/** The bytes that make the terminal do it: a scroll region, SU or SD inside it, and the margins back. */
export function scrollSequence(plan: ScrollPlan, reset: string): string {
  return `${reset}\x1b[${plan.top + 1};${plan.bottom + 1}r\x1b[${Math.abs(plan.shift)}${plan.shift > 0 ? 'S' : 'T'}\x1b[r`;
}

/**
 * True when every row of the region was the region's before, cut at the same column: only then
 * can a scroll wait for its turn with the region's rows left as they are. When the region grew
 * (the input bar shrank after Enter) or its width changed, rows that were not the region's must be
 * drawn now, and old rows kept beside new ones would show a mix of two layouts (an answer under
 * the rows where the question should be).
 */
export function regionKeepsLayout(before: readonly Row[], rows: readonly Row[], regionHeight: number): boolean {
  for (let index = 0; index < regionHeight && index < rows.length; index++) {
    if (before[index]?.cut !== rows[index]!.cut) return false;
  }
  return true;
}
