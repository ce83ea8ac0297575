import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { renderApp, type Harness } from './render';

const tools = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => ({ name: `${prefix}-tool-${String(index + 1).padStart(2, '0')}`, inputSchema: {} }));

const servers: ServerSnapshot[] = [
  { alias: 'first', target: 'built-in', state: 'ready', transport: 'in-memory', tools: tools('one', 3), stderr: [] },
  { alias: 'many', target: 'node many.js', state: 'ready', transport: 'stdio', tools: tools('many', 30), stderr: [] },
  { alias: 'last', target: 'node last.js', state: 'ready', transport: 'stdio', tools: tools('last', 20), stderr: [] },
];

let h: Harness;
afterEach(() => h?.unmount());

/** The sidebar's list rows: inside its border, below the title. */
function listRows(): string[] {
  const lines = h.screen().split('\n');
  const top = lines.findIndex((line) => line.includes('┌'));
  const left = lines[top]!.indexOf('┌');
  const right = lines[top]!.indexOf('┐');
  const rows: string[] = [];
  for (const line of lines.slice(top + 2)) {
    if (line[left] === '└') break;
    rows.push(line.slice(left + 1, right).trim());
  }
  return rows.filter((row) => row !== '');
}

async function browse(downs: number) {
  h = renderApp({ columns: 120, rows: 20 });
  for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
  await h.settle();
  await h.type('\t');
  await h.type('\x1b[B'); // to `many`
  await h.type('\r'); // expand it
  for (let index = 0; index < downs; index++) await h.type('\x1b[B');
}

describe('sidebar: a scrolled tool list keeps its server row', () => {
  it('shows the server of the tools on screen as the first row while its list scrolls', async () => {
    await browse(20);
    const rows = listRows();
    expect(rows.some((row) => row.includes('many-tool-20') && row.startsWith('›'))).toBe(true);
    // The list scrolled past `first` and past the top of `many`'s tools...
    expect(rows.join('\n')).not.toContain('first');
    expect(rows.join('\n')).not.toContain('many-tool-01');
    // ...and `many` itself sits on top, above its tools.
    expect(rows[0]).toMatch(/^▾● many\s+stdio 30$/);
    expect(rows[1]).toBe('├ many-tool-17');
  });

  it('a window that would start on the last tool of a server starts at the next server instead', async () => {
    await browse(31); // `last`, its row selected
    await h.type('\r');
    for (let index = 0; index < 3; index++) await h.type('\x1b[B');
    const rows = listRows();
    expect(rows[0]).toMatch(/^▾● last\s+stdio 20$/);
    expect(rows[1]).toBe('├ last-tool-01');
    expect(rows.some((row) => row.includes('last-tool-03') && row.startsWith('›'))).toBe(true);
    expect(rows.join('\n')).not.toContain('many');
  });

  it('keeps the server row on top with the list scrolled to its end', async () => {
    await browse(31);
    await h.type('\r');
    for (let index = 0; index < 25; index++) await h.type('\x1b[B');
    const rows = listRows();
    expect(rows[0]).toMatch(/^▾● last\s+stdio 20$/);
    expect(rows[1]).toMatch(/^├ last-tool-\d\d$/);
    expect(rows.at(-1)).toMatch(/^› *└ last-tool-20$/);
    expect(rows.join('\n')).not.toContain('last-tool-01');
  });

  it('does not pin anything when the whole list fits', async () => {
    h = renderApp({ columns: 120, rows: 40 });
    for (const snapshot of servers.slice(0, 1)) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
    await h.settle();
    await h.type('\t');
    await h.type('\r');
    expect(listRows()).toEqual([expect.stringMatching(/^›▾● first/), '├ one-tool-01', '├ one-tool-02', '└ one-tool-03']);
  });
});
