import { appendFileSync, mkdtempSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/services/conversation/types';
import {
  collectSecrets,
  createRedactor,
  createSessionLog,
  INTERRUPTED_TOOL_RESULT,
  latestSessionId,
  listSessions,
  loadSession,
  resolveSessionId,
} from '../../../src/services/history';

const at = '2026-01-01T00:00:00.000Z';
const noRedact = createRedactor([]);

function scratch(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-hist-')), 'state', 'sessions');
}

const conversation: Message[] = [
  { id: 'm1', role: 'user', content: 'what is 6*7?', at },
  { id: 'm2', role: 'assistant', content: 'Computing.', toolCalls: [{ id: 'c1', name: 'builtin__calculator', arguments: '{"expression":"6*7"}' }], finishReason: 'tool_calls', at },
  { id: 'm3', role: 'tool', toolCallId: 'c1', name: 'builtin__calculator', content: '42', isError: false, at },
  { id: 'm4', role: 'assistant', content: 'It is 42.\nCMD: echo 42', finishReason: 'stop', at },
  { id: 'm5', role: 'exec', command: 'echo 42', output: '42\n', exitCode: 0, at },
];

describe('session log', () => {
  it('writes one JSONL record per message after a header, and reads them back unchanged', () => {
    const dir = scratch();
    const log = createSessionLog({ dir, redact: noRedact, model: 'local', cwd: '/tmp' });
    for (const message of conversation) log.append(message);
    log.flush();
    log.close();
    const lines = readFileSync(log.file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1 + conversation.length);
    expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session', version: 1, id: log.id, model: 'local', cwd: '/tmp' });
    const loaded = loadSession(dir, log.id);
    expect(loaded.messages).toEqual(conversation);
    expect(loaded.warnings).toEqual([]);
  });

  it('creates the directory 0700 and the file 0600, and only when the first message arrives', () => {
    const dir = scratch();
    const log = createSessionLog({ dir, redact: noRedact });
    expect(listSessions(dir)).toEqual([]);
    log.append(conversation[0]!);
    log.close();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(log.file).mode & 0o777).toBe(0o600);
  });

  it('skips a torn last line with a warning and loads the rest; appending continues on a fresh line', () => {
    const dir = scratch();
    const log = createSessionLog({ dir, redact: noRedact });
    log.append(conversation[0]!);
    log.close();
    // A crash in the middle of writing the next record.
    appendFileSync(log.file, '{"type":"message","message":{"id":"m2","role":"assist');
    const loaded = loadSession(dir, log.id);
    expect(loaded.messages).toEqual([conversation[0]]);
    expect(loaded.warnings).toEqual([`session ${log.id}: the last line was cut off (the app stopped while writing it); skipped`]);

    const resumed = createSessionLog({ dir, id: log.id, redact: noRedact });
    resumed.append({ id: 'm9', role: 'user', content: 'again', at });
    resumed.close();
    const again = loadSession(dir, log.id);
    expect(again.messages.map((message) => message.id)).toEqual(['m1', 'm9']);
    expect(again.warnings).toEqual([`session ${log.id}: line 3 is not valid JSON; skipped`]);
  });

  it('gives an interrupted tool call a result so the resumed history is valid, never re-running it', () => {
    const dir = scratch();
    const log = createSessionLog({ dir, redact: noRedact });
    log.append(conversation[0]!);
    log.append({ ...conversation[1]!, toolCalls: [{ id: 'c1', name: 'a__x', arguments: '{}' }, { id: 'c2', name: 'a__y', arguments: '{}' }] } as Message);
    log.append({ id: 'r1', role: 'tool', toolCallId: 'c1', name: 'a__x', content: 'done', isError: false, at });
    log.close();
    const loaded = loadSession(dir, log.id);
    expect(loaded.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(loaded.messages[3]).toMatchObject({ role: 'tool', toolCallId: 'c2', content: INTERRUPTED_TOOL_RESULT, isError: true });
    expect(loaded.warnings[0]).toContain('1 tool call(s) had no result');
  });

  it('skips records that are JSON but not messages', () => {
    const dir = scratch();
    const log = createSessionLog({ dir, redact: noRedact });
    log.append(conversation[0]!);
    log.close();
    appendFileSync(log.file, '{"type":"message","message":{"id":"x","role":"user"}}\n[1,2]\n');
    const loaded = loadSession(dir, log.id);
    expect(loaded.messages).toHaveLength(1);
    expect(loaded.warnings).toHaveLength(2);
  });

  it('never writes secrets: configured keys by value, bearer tokens and sk- keys by shape', () => {
    const dir = scratch();
    const secrets = collectSecrets(
      {
        models: { cloud: { name: 'cloud', baseUrl: 'https://x.example/v1', model: 'm', keyEnv: 'MY_KEY', headers: { 'X-Title': 'aish-tui', 'X-Api-Key': 'hdr-secret-123' } } },
        mcp: { servers: { fs: { url: 'https://fs.example/mcp', authToken: 'tok-literal-999' }, ev: { command: 'npx', env: { LOG_LEVEL: 'warn', GITHUB_TOKEN: 'ghp_envsecret77' } } } } as never,
      },
      { MY_KEY: 'env-key-abcdef' },
    );
    expect(secrets.sort()).toEqual(['env-key-abcdef', 'ghp_envsecret77', 'hdr-secret-123', 'tok-literal-999']);
    const log = createSessionLog({ dir, redact: createRedactor(secrets) });
    log.append({ id: 'u', role: 'user', content: 'my key is env-key-abcdef and tok-literal-999', at });
    log.append({ id: 't', role: 'tool', toolCallId: 'c', name: 'fs__headers', content: 'Authorization: Bearer abcdefghijklmnop\nkey sk-proj-ABCDEFGHIJKLMNOPQRST\nGITHUB_TOKEN=ghp_envsecret77 via aish-tui', isError: false, at });
    log.close();
    const text = readFileSync(log.file, 'utf8');
    for (const secret of ['env-key-abcdef', 'tok-literal-999', 'abcdefghijklmnop', 'sk-proj-ABCDEFGHIJKLMNOPQRST', 'ghp_envsecret77']) expect(text).not.toContain(secret);
    expect(text).toContain('Bearer [redacted]');
    expect(text).toContain('my key is [redacted] and [redacted]');
    // Values that are not credentials stay (X-Title, LOG_LEVEL).
    expect(text).toContain('via aish-tui');
  });

  it('lists sessions newest first with a preview; resolves ids and unambiguous prefixes', () => {
    const dir = scratch();
    const older = createSessionLog({ dir, id: '20260101-100000-aaaaaa', redact: noRedact });
    older.append({ id: 'u', role: 'user', content: 'first   session\nline two', at });
    older.close();
    const newer = createSessionLog({ dir, id: '20260102-100000-bbbbbb', redact: noRedact });
    newer.append({ id: 'u', role: 'user', content: 'second', at });
    newer.close();
    utimesSync(older.file, new Date('2026-01-01T10:00:00Z'), new Date('2026-01-01T10:00:00Z'));
    utimesSync(newer.file, new Date('2026-01-02T10:00:00Z'), new Date('2026-01-02T10:00:00Z'));
    writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const sessions = listSessions(dir);
    expect(sessions.map((session) => [session.id, session.preview])).toEqual([
      ['20260102-100000-bbbbbb', 'second'],
      ['20260101-100000-aaaaaa', 'first session line two'],
    ]);
    expect(latestSessionId(dir)).toBe('20260102-100000-bbbbbb');
    expect(resolveSessionId(dir, '20260101')).toBe('20260101-100000-aaaaaa');
    expect(() => resolveSessionId(dir, '2026')).toThrow('ambiguous');
    expect(() => resolveSessionId(dir, 'nope')).toThrow('no session "nope"');
    expect(() => loadSession(dir, '../etc/passwd')).toThrow('not a session id');
    expect(latestSessionId(path.join(dir, 'missing'))).toBeUndefined();
  });
});
