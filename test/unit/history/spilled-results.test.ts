import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor, createResultKeeper, headBytes } from '../../../src/services/history';
import { LineReadBuffer } from '../../../src/services/mcp/line-buffer';
import { pendingRestCount, redactRestsWith, spilledPieces } from '../../../src/services/shared/spilled-text';

// A huge result whose rest the stdio reader put in a file (src/services/shared/spilled-text.ts):
// the keeper writes the same side file and keeps the same head as for a result read whole.

const dir = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-results-')), 'sessions');
const call = { id: 'c1', name: 'files__read' };
const SECRET = 'sk-live-abcdefghijklmnop';
const SERVER_TOKEN = 'server-own-token-123456';

/** `text` as a stdio server sends it, read by the app's reader with a head of `headBytes`. */
function readSpilled(text: string, headBytes: number): string {
  const reader = new LineReadBuffer(64 * 1024 * 1024, headBytes);
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } })}\n`);
  for (let at = 0; at < line.length; at += 65_536) reader.append(line.subarray(at, at + 65_536));
  const message = reader.readMessage() as unknown as { result: { content: Array<{ text: string }> } };
  return message.result.content[0]!.text;
}

function keepBoth(whole: string, options: { save?: boolean } = {}) {
  const redact = () => createRedactor([SECRET]);
  const serverRedact = createRedactor([SERVER_TOKEN]);
  const sessionsA = dir();
  const sessionsB = dir();
  const spilled = readSpilled(whole, 20_000);
  expect(spilledPieces(spilled)).toHaveLength(3);
  // As calls.ts does: the session redacts what it holds, and its redactor goes with the rest.
  const held = serverRedact(spilled);
  redactRestsWith(held, serverRedact);
  const fromSpilled = createResultKeeper({ dir: sessionsA, maxBytes: 4096, redact, ...options })(call, held);
  const fromWhole = createResultKeeper({ dir: sessionsB, maxBytes: 4096, redact, ...options })(call, serverRedact(whole));
  return { fromSpilled, fromWhole, sessionsA, sessionsB };
}

const sideFile = (kept: string) => /the whole result is in (\S+)$/.exec(kept)![1]!;

describe('keeping a huge result whose rest is in a file', () => {
  it('writes the same side file and keeps the same head as for the whole text, both redactors applied', () => {
    const before = pendingRestCount();
    // Secrets everywhere: in the head, across the head's end, across read slices, at the very end.
    const whole = Array.from({ length: 4000 }, (_, line) => `line ${line} "grüße" \\ 😀 ${line % 97 === 0 ? SECRET : ''}${line % 131 === 0 ? SERVER_TOKEN : ''}`).join('\n') + SECRET;
    const { fromSpilled, fromWhole } = keepBoth(whole);
    const fileA = sideFile(fromSpilled);
    const fileB = sideFile(fromWhole);
    // The size said is the text as the server sent it (the rest is measured before it is redacted).
    const same = (kept: string, file: string) => kept.replace(file, 'FILE').replace(/this result was [\d.]+ \w+/, 'this result was N');
    expect(same(fromSpilled, fileA)).toBe(same(fromWhole, fileB));
    expect(fromSpilled).toContain(`this result was ${Math.round(Buffer.byteLength(whole) / 1024)} KiB`);
    expect(fromSpilled.startsWith(headBytes(createRedactor([SECRET, SERVER_TOKEN])(whole), 4096))).toBe(true);
    const saved = readFileSync(fileA, 'utf8');
    expect(saved).toBe(readFileSync(fileB, 'utf8'));
    expect(saved).not.toContain(SECRET);
    expect(saved).not.toContain(SERVER_TOKEN);
    expect(saved.endsWith('[redacted]')).toBe(true);
    expect(statSync(fileA).mode & 0o777).toBe(0o600);
    expect(pendingRestCount()).toBe(before);
  });

  it('with history off keeps the head, writes nothing and frees the rest', () => {
    const before = pendingRestCount();
    const whole = 'x'.repeat(200_000);
    const { fromSpilled, fromWhole, sessionsA } = keepBoth(whole, { save: false });
    expect(fromSpilled).toBe(fromWhole);
    expect(fromSpilled).toContain('this result was 195 KiB');
    expect(existsSync(path.join(sessionsA, 'results')) ? readdirSync(path.join(sessionsA, 'results')) : []).toEqual([]);
    expect(pendingRestCount()).toBe(before);
  });
});
