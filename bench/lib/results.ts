/** Measurements collected over several runs, and how they are summarized and printed. */

export type Unit = 'ms' | 's' | 'MB' | 'KiB' | '%' | 'x' | 'count';

interface Series {
  scenario: string;
  metric: string;
  unit: Unit;
  values: number[];
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Nearest-rank percentile (p in 0..1). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function format(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return '-';
  switch (unit) {
    case 'ms':
      return value >= 100 ? value.toFixed(0) : value.toFixed(1);
    case 's':
      return value.toFixed(3);
    case 'MB':
    case 'KiB':
      return value.toFixed(1);
    case '%':
      return value.toFixed(1);
    case 'x':
      return value.toFixed(2);
    case 'count':
      return value.toFixed(0);
  }
}

export class Results {
  private readonly series = new Map<string, Series>();
  /** Failures by scenario, printed with the table. */
  readonly errors: Array<{ scenario: string; message: string }> = [];

  add(scenario: string, metric: string, unit: Unit, value: number | undefined): void {
    if (value === undefined || !Number.isFinite(value)) return;
    const key = `${scenario}\u0000${metric}`;
    let entry = this.series.get(key);
    if (!entry) {
      entry = { scenario, metric, unit, values: [] };
      this.series.set(key, entry);
    }
    entry.values.push(value);
  }

  values(scenario: string, metric: string): number[] {
    return this.series.get(`${scenario}\u0000${metric}`)?.values ?? [];
  }

  median(scenario: string, metric: string): number {
    return median(this.values(scenario, metric));
  }

  /** One row per scenario and metric: median, min, max over the runs. */
  rows(): string[][] {
    return [...this.series.values()].map((entry) => [
      entry.scenario,
      `${entry.metric} (${entry.unit})`,
      format(median(entry.values), entry.unit),
      format(Math.min(...entry.values), entry.unit),
      format(Math.max(...entry.values), entry.unit),
      String(entry.values.length),
    ]);
  }
}

export const RESULT_COLUMNS = ['scenario', 'metric', 'median', 'min', 'max', 'runs'];

/** Prints rows as an aligned text table (first column left, the rest right-aligned). */
export function textTable(columns: string[], rows: string[][]): string {
  const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, index) => (index <= 1 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ').trimEnd();
  return [line(columns), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

/** The same as a Markdown table. */
export function markdownTable(columns: string[], rows: string[][]): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  return [
    `| ${columns.map(escape).join(' | ')} |`,
    `| ${columns.map((_, index) => (index <= 1 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}
