import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSessionLogger, resolveResume, type SessionLogOptions } from '../../../src/runtime/session-log';
import { loadConfig } from '../../../src/services/config/load';
import type { Message } from '../../../src/services/conversation/types';
import { createRedactor, loadSession } from '../../../src/services/history/index';

// Real files in a scratch state directory, read back with the loader a resume uses.
async function options(overrides: Partial<SessionLogOptions> = {}): Promise<SessionLogOptions & { errors: string[] }> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'aish-session-log-'));
  const config = await loadConfig({ cli: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm' }, env: { HOME: home }, cwd: home });
  const errors: string[] = [];
  return { config, redact: createRedactor([]), cwd: home, model: () => 'm', onError: (message) => errors.push(message), errors, ...overrides };
}

const at = new Date().toISOString();
const user = (id: string, content: string): Message => ({ id, role: 'user', content, at });
const assistant = (id: string, content: string): Message => ({ id, role: 'assistant', content, at });
const records = (file: string) => readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; id?: string; message?: Message });

describe('the session log', () => {
  it('appends every message and marks a taken-back one withdrawn only when the next message is written', async () => {
    const opts = await options();
    const log = createSessionLogger(opts, {});
    log.append(user('u1', 'first question'));
    log.withdrawLater(['u1']);
    const file = path.join(log.dir, `${log.id()}.jsonl`);
    // Until something new is written the file still says the question is unanswered.
    expect(records(file).map((record) => record.type)).toEqual(['session', 'message']);
    log.append(user('u2', 'second question'));
    log.append(assistant('a2', 'an answer'));
    log.close();
    expect(records(file).slice(1).map((record) => record.id ?? record.message?.id)).toEqual(['u1', 'u1', 'u2', 'a2']);
    expect(loadSession(log.dir, log.id()!).messages.map((message) => message.id)).toEqual(['u2', 'a2']);
  });

  it('resume opens the saved session with its messages; switching drops pending withdrawals', async () => {
    const opts = await options();
    const first = createSessionLogger(opts, {});
    first.append(user('u1', 'hello'));
    first.append(assistant('a1', 'hi'));
    first.close();
    const id = first.id()!;

    const second = createSessionLogger(opts, { resume: id });
    expect(second.id()).toBe(id);
    expect(second.current().resumedId).toBe(id);
    expect(second.current().messages.map((message) => message.id)).toEqual(['u1', 'a1']);
    second.withdrawLater(['a1']);
    const fresh = second.open({});
    second.switchTo(fresh);
    expect(second.id()).not.toBe(id);
    second.append(user('u2', 'new session'));
    second.close();
    // The withdrawal belonged to the old session: neither file carries it.
    expect(loadSession(opts.config.history.dir ?? second.dir, id).messages.map((message) => message.id)).toEqual(['u1', 'a1']);
    expect(readdirSync(second.dir)).toHaveLength(2);
  });

  it('an unknown id is an error that names it; nothing is opened', async () => {
    const opts = await options();
    expect(() => createSessionLogger(opts, { resume: 'nope' })).toThrow(/--resume: .*nope/);
    const log = createSessionLogger(opts, { continueLast: false });
    expect(() => log.open({ resume: 'nope' })).toThrow(/nope/);
    expect(log.id()).toBeDefined();
  });

  it('secrets never reach the file; the header names the model in use when the session opened', async () => {
    let model = 'first-model';
    const opts = await options({ redact: createRedactor(['sk-very-secret-key']), model: () => model });
    const log = createSessionLogger(opts, {});
    model = 'second-model';
    log.append(user('u1', 'my key is sk-very-secret-key'));
    log.close();
    const text = readFileSync(path.join(log.dir, `${log.id()}.jsonl`), 'utf8');
    expect(text).not.toContain('sk-very-secret-key');
    expect(records(path.join(log.dir, `${log.id()}.jsonl`))[0]).toMatchObject({ type: 'session', model: 'first-model' });
  });

  it('history disabled: nothing is written, nothing fails', async () => {
    const opts = await options();
    opts.config.history.enabled = false;
    const log = createSessionLogger(opts, {});
    log.append(user('u1', 'hello'));
    log.flush();
    log.close();
    expect(log.id()).toBeUndefined();
    expect(opts.errors).toEqual([]);
  });

  it('the TUI checks --continue / --resume before its screen switches: the id, or a one-line error', async () => {
    const opts = await options();
    expect(resolveResume(opts.config, {})).toBeUndefined();
    expect(() => resolveResume(opts.config, { continueLast: true })).toThrow(/--continue: no saved session/);
    const log = createSessionLogger(opts, {});
    log.append(user('u1', 'hello'));
    log.close();
    expect(resolveResume(opts.config, { continueLast: true })).toBe(log.id());
    expect(resolveResume(opts.config, { resume: log.id()!.slice(0, 10) })).toBe(log.id());
    expect(() => resolveResume(opts.config, { resume: 'nope' })).toThrow(/--resume: .*nope/);
  });
});
