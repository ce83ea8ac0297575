import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { startScriptedBroker, textReply } from '../../helpers/scripted-broker';
import { createSession, type Session } from '../../../src/runtime/session';
import type { AppConfig } from '../../../src/services/config/load';
import type { Message } from '../../../src/services/conversation/types';
import { loadSession, sessionsDir } from '../../../src/services/history/index';
import { createAppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { testConfig } from './harness';
import { untilStore as until } from '../../helpers/store-until';

// The habits people bring from other clients (README.md: Commands, Files and images, Going back,
// Getting text out), driven through the session the way the input bar drives it.
const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });


const contentOf = (message: Message) => ('content' in message ? message.content : message.role);
const statusTexts = (items: ChatItem[]) => items.flatMap((item) => (item.kind === 'status' ? [item.text] : []));

function start(config: AppConfig, extra: { cwd?: string; clipboard?: (sequence: string) => boolean; args?: { continueLast: boolean; resume?: string }; onHistoryLoaded?: (messages: number) => void } = {}) {
  const store = createAppStore();
  const session: Session = track(createSession({ config, store, quit: () => undefined, mcp: undefined, ...extra }));
  return { store, session };
}

async function send(session: Session, text: string) {
  session.submit(text);
  await new Promise((resolve) => setTimeout(resolve, 10));
  await session.idle();
}

const lastUserContent = (index = -1) => broker.requests.at(index)!.body!.messages!.filter((message) => message.role === 'user').at(-1)!.content;

describe('slash commands', () => {
  it('/name runs the : command; a path is a message; an unknown /word is not sent and says why', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const { store, session } = start(config);
    expect(session.precheck('/etc/hosts is a file')).toBeUndefined();
    expect(session.precheck('/frobnicate now')).toMatch(/\/frobnicate is not a command, not sent/);
    expect(session.precheck('/HELP')).toBeUndefined();
    const before = broker.requests.length;
    session.submit('/help');
    expect(statusTexts(store.getState().items).at(-1)).toContain('Commands:');
    session.submit('/frobnicate now');
    expect(broker.requests.length).toBe(before);
    await send(session, '/etc/hosts is a file');
    expect(lastUserContent()).toBe('/etc/hosts is a file');
    await send(session, '//help me');
    expect(lastUserContent()).toBe('/help me');
  });
});

describe('pickers', () => {
  it(':model without a name lists configured models at once and adds what the server offers; choosing one not configured switches to it', async () => {
    broker.models(['scripted', 'big-model', 'bad\u001b[31mid']);
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = {};
      c.models = { [c.defaultModel]: c.models[c.defaultModel]! };
    });
    const { store, session } = start(config);
    session.submit(':model');
    const picker = store.getState().picker!;
    expect(picker.items.map((item) => item.label)).toEqual([`* ${config.defaultModel}`]);
    const withServer = await until(store, (state) => (state.picker && state.picker.items.length > 1 ? state.picker : undefined));
    // A configured model is not listed twice; an id with control characters is not offered at all.
    expect(withServer.items.map((item) => item.label)).toEqual([`* ${config.defaultModel}`, 'big-model']);
    expect(broker.requests.filter((request) => request.path.endsWith('/models')).length).toBeGreaterThan(0);
    store.getState().setPicker(undefined);
    withServer.choose(withServer.items[1]!);
    expect(store.getState().modelName).toBe('big-model');
    await send(session, 'hello');
    expect(broker.requests.at(-1)!.body!.model).toBe('big-model');
    broker.models(undefined);
  });

  it('each server is asked for its models with its own model\'s key only', async () => {
    const second = await startScriptedBroker();
    try {
      second.models(['second-only']);
      broker.models(['first-only']);
      const config = await testConfig(broker.url, (c) => {
        c.mcp.servers = {};
        c.models = {
          [c.defaultModel]: { ...c.models[c.defaultModel]!, apiKey: 'key-for-the-first-server' },
          two: { ...c.models[c.defaultModel]!, name: 'two', baseUrl: second.url, model: 'm2', apiKey: 'key-for-the-second-server' },
        };
      });
      const from = broker.requests.length;
      const { store, session } = start(config);
      session.submit(':model');
      await until(store, (state) => (state.picker && state.picker.items.length === 4 ? state.picker : undefined));
      const auth = (server: typeof broker) => server.requests.slice(server === broker ? from : 0).filter((request) => request.path.endsWith('/models')).map((request) => request.headers.authorization);
      expect(auth(broker)).toEqual(['Bearer key-for-the-first-server']);
      expect(auth(second)).toEqual(['Bearer key-for-the-second-server']);
    } finally {
      broker.models(undefined);
      await second.close();
    }
  });

  it(':resume without an id lists the saved sessions (first message, model, size) and resumes the chosen one', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const first = start(config);
    await send(first.session, 'the very first question');
    await first.session.close();
    const loaded: number[] = [];
    const { store, session } = start(config, { onHistoryLoaded: (messages) => loaded.push(messages) });
    session.submit(':resume');
    const picker = store.getState().picker!;
    expect(picker.items).toHaveLength(1);
    expect(picker.items[0]!.label).toBe('the very first question');
    expect(picker.items[0]!.detail).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d  scripted  \d+(\.\d)? (B|KB)$/);
    store.getState().setPicker(undefined);
    expect(loaded).toEqual([]);
    picker.choose(picker.items[0]!);
    expect(store.getState().messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    // The front end hears of the load (the TUI collects after a long one).
    expect(loaded).toEqual([2]);
  });
});

describe('going back', () => {
  it(':rewind drops later turns from the context (not the file), puts the message back in the input, and a resume continues from there', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const { store, session } = start(config);
    await send(session, 'one');
    await send(session, 'two');
    await send(session, 'three');
    session.submit(':rewind');
    const picker = store.getState().picker!;
    expect(picker.items.map((item) => item.label)).toEqual(['three', 'two', 'one']);
    store.getState().setPicker(undefined);
    picker.choose(picker.items[1]!);
    expect(store.getState().messages.map((message) => (message.role === 'user' ? message.content : message.role))).toEqual(['one', 'assistant']);
    expect(store.getState().editor).toMatchObject({ text: 'two', literal: true });
    await send(session, 'two, better');
    expect(broker.requests.at(-1)!.body!.messages!.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(['one', 'two, better']);
    await session.close();
    // The file keeps everything, and says where the conversation went back to.
    const dir = sessionsDir(config);
    const [only] = (await import('node:fs')).readdirSync(dir);
    const raw = readFileSync(path.join(dir, only!), 'utf8');
    expect(raw).toContain('"three"');
    expect(raw).toContain('"type":"rewind"');
    const loaded = loadSession(dir, only!.replace(/\.jsonl$/, ''));
    expect(loaded.messages.map((message) => (message.role === 'user' ? message.content : message.role))).toEqual(['one', 'assistant', 'two, better', 'assistant']);
  });

  it(':retry asks the last question again without its old answer; :fork goes on in a new session and leaves the old one as it was', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const { store, session } = start(config);
    broker.enqueue(textReply('first answer'));
    await send(session, 'question');
    broker.enqueue(textReply('second answer'));
    session.submit(':retry');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await session.idle();
    const sent = broker.requests.at(-1)!.body!.messages!.map((message) => message.content);
    expect(sent).not.toContain('first answer');
    expect(sent.at(-1)).toBe('question');
    expect(store.getState().messages.map(contentOf)).toEqual(['question', 'second answer']);

    const dir = sessionsDir(config);
    const before = (await import('node:fs')).readdirSync(dir);
    session.submit(':fork');
    expect(statusTexts(store.getState().items).at(-1)).toMatch(/^forked: this conversation goes on in session /);
    await send(session, 'after the fork');
    const after = (await import('node:fs')).readdirSync(dir);
    expect(after).toHaveLength(2);
    const forked = after.find((name) => !before.includes(name))!;
    const old = loadSession(dir, before[0]!.replace(/\.jsonl$/, ''));
    expect(old.messages.map(contentOf)).toEqual(['question', 'second answer']);
    const fresh = loadSession(dir, forked.replace(/\.jsonl$/, ''));
    expect(fresh.messages.map(contentOf)).toEqual(['question', 'second answer', 'after the fork', 'ok']);
  });
});

describe('files and images', () => {
  function project() {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'aish-attach-'));
    writeFileSync(path.join(cwd, 'notes.txt'), 'hello from a file\n');
    writeFileSync(path.join(cwd, 'blob.bin'), Buffer.from([0, 1, 2, 3, 255, 0]));
    writeFileSync(path.join(cwd, 'shot.png'), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('rest')]));
    mkdirSync(path.join(cwd, '.ssh'));
    writeFileSync(path.join(cwd, '.ssh', 'id_ed25519'), 'PRIVATE');
    writeFileSync(path.join(cwd, '.env'), 'TOKEN=1');
    symlinkSync('/etc/hostname', path.join(cwd, 'link-out'));
    return cwd;
  }

  it('@file attaches its text (sent, logged, shown as a chip); binary, outside, symlinked-out and credential files are refused', async () => {
    const cwd = project();
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const { store, session } = start(config, { cwd });
    expect(session.precheck('look @blob.bin')).toMatch(/@blob.bin is a binary file/);
    expect(session.precheck('look @../../etc/passwd')).toMatch(/outside the working directory/);
    expect(session.precheck('look @/etc/passwd')).toMatch(/outside the working directory/);
    expect(session.precheck('look @link-out')).toMatch(/outside the working directory/);
    expect(session.precheck('look @.ssh/id_ed25519')).toMatch(/never attached: a credential or key path/);
    expect(session.precheck('look @.env')).toMatch(/never attached: a credential or key path/);
    expect(session.precheck('ask @someone about it')).toBeUndefined();
    await send(session, 'summarise @notes.txt please');
    expect(lastUserContent()).toBe('summarise @notes.txt please\n\n[file: notes.txt]\n```\nhello from a file\n```');
    expect(store.getState().items.find((item) => item.kind === 'user')).toMatchObject({ attachments: ['notes.txt · 18 B'] });
    await session.close();
    const dir = sessionsDir(config);
    const [only] = (await import('node:fs')).readdirSync(dir);
    const loaded = loadSession(dir, only!.replace(/\.jsonl$/, ''));
    expect(loaded.messages[0]).toMatchObject({ role: 'user', attachments: [{ path: 'notes.txt', kind: 'text', data: 'hello from a file\n' }] });
  });

  it('@file is refused by the argument guard of the config: its own paths, defaults off, aish-tui files', async () => {
    const cwd = project();
    writeFileSync(path.join(cwd, 'payroll.csv'), 'name,salary\n');
    writeFileSync(path.join(cwd, 'server.pem'), 'CERT');
    const guarded = await testConfig(broker.url, (c) => {
      c.mcp.servers = {};
      c.mcp.argumentGuard = { paths: ['**/payroll.csv'], defaults: true };
    });
    const one = start(guarded, { cwd });
    expect(one.session.precheck('look @payroll.csv')).toMatch(/@payroll.csv is never attached: a credential or key path/);
    expect(one.session.precheck('look @server.pem')).toMatch(/never attached/);
    expect(one.session.precheck('look @notes.txt')).toBeUndefined();
    await one.session.close();
    // `defaults: false` drops the built-in list for attachments too; aish-tui's own files stay refused.
    const open = await testConfig(broker.url, (c) => {
      c.mcp.servers = {};
      c.mcp.argumentGuard = { paths: [], defaults: false };
    });
    const stateFile = path.join(open.paths.stateDir, 'notes.txt');
    mkdirSync(open.paths.stateDir, { recursive: true });
    writeFileSync(stateFile, 'state');
    const two = start(open, { cwd });
    expect(two.session.precheck('look @server.pem')).toBeUndefined();
    symlinkSync(stateFile, path.join(cwd, 'state-link'));
    expect(two.session.precheck('look @state-link')).toMatch(/never attached: aish-tui's own config or state/);
    await two.session.close();
  });

  it('an image goes as an image part to a vision model, and is refused with a note for the others', async () => {
    const cwd = project();
    const plain = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const refused = start(plain, { cwd });
    expect(refused.session.precheck('what is in @shot.png')).toMatch(/@shot.png is an image and .* is not marked vision: true/);
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = {};
      c.models[c.defaultModel]!.vision = true;
    });
    const { session } = start(config, { cwd });
    await send(session, `what is in ${path.join(cwd, 'shot.png')}`);
    const content = lastUserContent() as Array<{ type: string; text?: string; image_url?: { url: string } }>;
    expect(content[0]).toEqual({ type: 'text', text: `what is in ${path.join(cwd, 'shot.png')}` });
    expect(content[1]!.type).toBe('image_url');
    expect(content[1]!.image_url!.url).toMatch(/^data:image\/png;base64,/);
  });
});

describe('getting text out', () => {
  it(':copy sends OSC 52 only on the command, picks an answer or a code block; too large or refused goes to a 0600 file', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.servers = {}));
    const sent: string[] = [];
    let accept = true;
    const { store, session } = start(config, { clipboard: (sequence) => (sent.push(sequence), accept) });
    broker.enqueue(textReply('first\n\n```js\nconst a = 1;\n```\n\n```sh\nls -la\n```'));
    await send(session, 'q1');
    broker.enqueue(textReply('second answer'));
    await send(session, 'q2');
    expect(sent).toEqual([]);
    session.submit(':copy');
    session.submit(':copy 2 code');
    session.submit(':copy 2 code 1');
    const decoded = sent.map((sequence) => {
      expect(sequence).toMatch(/^\x1b\]52;c;[A-Za-z0-9+/=]*\x07$/);
      return Buffer.from(sequence.slice(7, -1), 'base64').toString('utf8');
    });
    expect(decoded).toEqual(['second answer', 'ls -la', 'const a = 1;']);
    accept = false;
    session.submit(':copy');
    const line = statusTexts(store.getState().items).at(-1)!;
    const file = /is in (\S+) \(/.exec(line)![1]!;
    expect(readFileSync(file, 'utf8')).toBe('second answer');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    session.submit(':copy 9');
    expect(statusTexts(store.getState().items).at(-1)).toMatch(/too far back/);
  });

  it(':export writes the conversation as Markdown with secrets redacted and control characters made visible, never over a file', async () => {
    const cwd = mkdtempSync(path.join(os.tmpdir(), 'aish-export-'));
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = {};
      c.models[c.defaultModel]!.apiKey = 'sk-very-secret-key-123456';
    });
    const { store, session } = start(config, { cwd });
    broker.enqueue(textReply('answer with \u001b[31mred\u001b[0m and sk-very-secret-key-123456'));
    await send(session, 'question');
    session.submit(':export out.md');
    const text = readFileSync(path.join(cwd, 'out.md'), 'utf8');
    expect(text).toContain('## You\n\nquestion');
    expect(text).not.toContain('sk-very-secret-key-123456');
    expect(text).not.toContain('\u001b');
    session.submit(':export out.md');
    expect(statusTexts(store.getState().items).at(-1)).toMatch(/exists; give another file name/);
    expect(existsSync(path.join(cwd, 'out.md'))).toBe(true);
  });
});
