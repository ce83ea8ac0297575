import { describe, expect, it } from 'vitest';
import { LOG_ENTRIES, LOG_ENTRY_CHARS, LOG_STATUS_INTERVAL_MS, ServerLog } from '../../../src/services/mcp/server-log';
import type { ServerLogEntry } from '../../../src/services/mcp/types';

function harness() {
  let now = 0;
  let entries: ServerLogEntry[] = [];
  const statuses: string[] = [];
  const log = new ServerLog('srv', { entries: (list) => (entries = list), status: (_level, message) => statuses.push(message), redact: (text) => text.replaceAll('s3cret', '[redacted]'), now: () => now });
  return { log, statuses, entries: () => entries, advance: (ms: number) => (now += ms) };
}

describe("a server's log", () => {
  it('keeps the last entries, each cut to a bounded length; non-string data as JSON; secrets redacted', () => {
    const { log, entries } = harness();
    for (let index = 0; index < LOG_ENTRIES + 5; index++) log.add({ level: 'info', data: `line ${index}` });
    expect(entries()).toHaveLength(LOG_ENTRIES);
    expect(entries()[0]!.text).toBe('line 5');
    log.add({ level: 'warning', logger: 'db', data: { token: 's3cret' } });
    expect(entries().at(-1)).toMatchObject({ level: 'warning', logger: 'db', text: '{"token":"[redacted]"}' });
    log.add({ level: 'info', data: 'x'.repeat(LOG_ENTRY_CHARS * 2) });
    expect(entries().at(-1)!.text).toHaveLength(LOG_ENTRY_CHARS);
  });

  it('error and worse also as a status line, at most one per interval, counting the ones left out', () => {
    const { log, statuses, advance } = harness();
    log.add({ level: 'warning', data: 'not a status' });
    log.add({ level: 'error', data: 'disk full\nsecond line' });
    log.add({ level: 'critical', data: 'again' });
    log.add({ level: 'alert', data: 'and again' });
    expect(statuses).toEqual(['mcp srv log error: disk full']);
    advance(LOG_STATUS_INTERVAL_MS);
    log.add({ level: 'emergency', data: 'last' });
    expect(statuses[1]).toBe("mcp srv log emergency: last (2 more since the last; all in the server's details)");
  });
});
