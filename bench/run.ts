// `npm run bench`: runs every scenario and prints one table. Benchmarks measure; they never pass
// or fail. Add a scenario by adding it to the list below.
import { accumulatorScenarios } from './accumulator';
import type { Scenario } from './scenario';

const scenarios: Scenario[] = [...accumulatorScenarios];

function printTable(rows: Array<Record<string, string>>): void {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(line(columns));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(columns.map((column) => row[column] ?? '')));
}

const filter = process.argv[2];
const rows: Array<Record<string, string>> = [];
for (const scenario of scenarios) {
  if (filter && !scenario.name.includes(filter)) continue;
  process.stderr.write(`running: ${scenario.name}\n`);
  try {
    rows.push({ scenario: scenario.name, ...(await scenario.run()) });
  } catch (error) {
    rows.push({ scenario: scenario.name, error: (error as Error).message });
  }
}
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
printTable(rows);
