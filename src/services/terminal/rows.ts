// Lists of rows, lines or spans of any length. Spreading a list into a call (`push(...rows)`,
// `Math.max(...widths)`) puts every element on the stack as an argument: past roughly 100k
// elements that is a RangeError (a 2 MB answer of short lines is 150k rows). These helpers loop.

/** Appends every item of `items` to `target` (the bounded form of `target.push(...items)`); returns `target`. */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  // An indexed loop: this runs for every span of every wrapped row, and small lists are the rule.
  for (let index = 0; index < items.length; index++) target.push(items[index]!);
  return target;
}

/** The largest of `values`, or `floor` when there are none or all are smaller (`Math.max(floor, ...values)`). */
export function maxOf(values: Iterable<number>, floor = -Infinity): number {
  let max = floor;
  for (const value of values) if (value > max) max = value;
  return max;
}

/** The smallest of `values`, or `ceiling` when there are none or all are larger (`Math.min(ceiling, ...values)`). */
export function minOf(values: Iterable<number>, ceiling = Infinity): number {
  let min = ceiling;
  for (const value of values) if (value < min) min = value;
  return min;
}
