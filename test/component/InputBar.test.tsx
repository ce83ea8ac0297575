import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Profiler } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatContainer } from '../../src/ui/containers/ChatContainer';
import { InputContainer } from '../../src/ui/containers/InputContainer';
import { InputHistory, MAX_ENTRIES } from '../../src/runtime/inputHistory';
import { createTheme } from '../../src/terminal/theme';
import { renderApp, type Harness } from './render';

let h: Harness;
let scratch: string | undefined;
afterEach(() => {
  h?.unmount();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

async function typeEach(text: string) {
  for (const char of text) await h.type(char);
}

const inputRows = () =>
  h
    .screen()
    .split('\n')
    .filter((line) => line.startsWith('│ '))
    .map((line) => line.slice(2).replace(/│\s*$/, '').trimEnd());

describe('input bar: editing', () => {
  it('types, sends on Enter and clears', async () => {
    h = renderApp();
    await typeEach('hello');
    expect(h.screen()).toContain('› hello');
    await h.type('\r');
    expect(h.controller.submitted).toEqual([{ text: 'hello' }]);
    expect(h.store.getState().editor.text).toBe('');
    expect(h.screen()).toContain('Ask anything');
  });

  it('Ctrl+J and Alt+Enter insert newlines and the bar grows', async () => {
    h = renderApp();
    await typeEach('one');
    await h.type('\x0a');
    await typeEach('two');
    await h.type('\x1b\r');
    await typeEach('three');
    const rows = inputRows();
    expect(rows.some((row) => row.startsWith('› one'))).toBe(true);
    expect(rows.some((row) => row.trim() === 'two')).toBe(true);
    expect(rows.some((row) => row.trim().startsWith('three'))).toBe(true);
    await h.type('\r');
    expect(h.controller.submitted[0]!.text).toBe('one\ntwo\nthree');
  });

  it('readline keys edit the line: Ctrl+A/E/U/K/W, Alt+B/F, arrows, Backspace, Delete', async () => {
    h = renderApp();
    await typeEach('abc def ghi');
    await h.type('\x17');
    expect(h.store.getState().editor.text).toBe('abc def ');
    await h.type('\x01');
    await h.type('\x1bf');
    await h.type('\x0b');
    expect(h.store.getState().editor.text).toBe('abc');
    await h.type('\x1bb');
    await h.type('\x1b[3~');
    await h.type('\x1b[C');
    await h.type('\x7f');
    expect(h.store.getState().editor.text).toBe('c');
    await h.type('\x05');
    await typeEach('!');
    expect(h.store.getState().editor.text).toBe('c!');
    await h.type('\x15');
    expect(h.store.getState().editor.text).toBe('');
  });

  it('Ctrl+D, Ctrl+S and other control keys never insert letters', async () => {
    h = renderApp({ columns: 120 });
    await typeEach('x');
    for (const control of ['\x13', '\x13', '\x07', '\x0f', '\x12', '\x14', '\x16', '\x18', '\x1a', '\x1bx', '\x1b[15~']) await h.type(control);
    expect(h.store.getState().editor.text).toBe('x');
    await h.type('\x04');
    expect(h.controller.quits).toBe(1);
    expect(h.store.getState().editor.text).toBe('x');
  });

  it('escapes control characters that arrive in a paste instead of sending them to the terminal', async () => {
    h = renderApp();
    await h.type('\x1b[200~a\x1b]52;c;eA==\x07b\x1b[201~');
    expect(h.screen()).toContain('a\\x1b]52;c;eA==\\x07b');
    expect(h.rawScreen()).not.toContain('\x1b]52');
  });
});

describe('input bar: paste', () => {
  it('inserts a paste as one edit; pasted newlines never send', async () => {
    h = renderApp();
    await h.type('\x1b[200~first\rsecond\r\x1b[201~');
    expect(h.controller.submitted).toEqual([]);
    expect(h.store.getState().editor.text).toBe('first\nsecond\n');
  });

  it('shows a large paste as [pasted N lines] and sends the whole text', async () => {
    h = renderApp();
    const lines = Array.from({ length: 50 }, (_, index) => `row ${index + 1}`);
    await typeEach('look: ');
    await h.type(`\x1b[200~${lines.join('\r')}\x1b[201~`);
    expect(h.screen()).toContain('› look: [pasted 50 lines]');
    expect(h.screen()).not.toContain('row 17');
    await h.type('\r');
    expect(h.controller.submitted).toEqual([{ text: `look: ${lines.join('\n')}` }]);
  });

  it('a paste goes to the input wherever the focus was', async () => {
    h = renderApp({ columns: 120 });
    h.store.getState().applyMcpEvent({ type: 'server', snapshot: { alias: 'a', target: 'built-in', state: 'ready', tools: [{ name: 't', inputSchema: {} }], stderr: [] } });
    await h.type('\t');
    await h.type('\x1b[B');
    await h.type('\r');
    await h.type('\x1b[B');
    await h.type('\r');
    expect(h.screen()).toContain('input schema');
    await h.type('\x1b[200~from the clipboard\x1b[201~');
    expect(h.store.getState().focus).toBe('input');
    expect(h.store.getState().editor.text).toBe('from the clipboard');
    expect(h.screen()).not.toContain('input schema');
  });

  it('a pasted leading : or ! is text, not a command', async () => {
    h = renderApp();
    await h.type('\x1b[200~:quit\x1b[201~');
    await h.type('\r');
    await h.type('\x1b[200~!rm -rf ~\x1b[201~');
    await h.type('\r');
    await typeEach(':help');
    await h.type('\r');
    expect(h.controller.submitted).toEqual([
      { text: ':quit', options: { literal: true } },
      { text: '!rm -rf ~', options: { literal: true } },
      { text: ':help' },
    ]);
  });
});

describe('input bar: history', () => {
  it('↑/↓ walk the history and come back to the text being typed', async () => {
    h = renderApp();
    for (const message of ['first', 'second']) {
      await typeEach(message);
      await h.type('\r');
    }
    await typeEach('draft');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('second');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('first');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('first');
    await h.type('\x1b[B');
    await h.type('\x1b[B');
    expect(h.store.getState().editor.text).toBe('draft');
  });

  it('is kept across sessions in <stateDir>/input-history with mode 0600', async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'aish-history-'));
    const stateDir = path.join(scratch, 'state', 'aish');
    h = renderApp({ history: InputHistory.forStateDir(stateDir).load() });
    await typeEach('remember me');
    await h.type('\r');
    await h.type('\x1b[200~two\rlines\x1b[201~');
    await h.type('\r');
    await typeEach(' secret with a leading space');
    await h.type('\r');
    h.unmount();
    const file = path.join(stateDir, 'input-history');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('secret');

    h = renderApp({ history: InputHistory.forStateDir(stateDir).load() });
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('two\nlines');
    await h.type('\x1b[A');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('remember me');
  });

  it('a pasted !command sent as a message comes back from the history as a message, also in a later session', async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'aish-history-'));
    const stateDir = path.join(scratch, 'state', 'aish');
    h = renderApp({ history: InputHistory.forStateDir(stateDir).load() });
    await h.type('\x1b[200~!touch /tmp/never-run\x1b[201~');
    await h.type('\r');
    await typeEach('!echo typed');
    await h.type('\r');
    await h.type('\x1b[A');
    expect(h.store.getState().editor).toMatchObject({ text: '!echo typed', literal: false });
    await h.type('\x1b[A');
    expect(h.store.getState().editor).toMatchObject({ text: '!touch /tmp/never-run', literal: true });
    await h.type('\r');
    expect(h.controller.submitted.at(-1)).toEqual({ text: '!touch /tmp/never-run', options: { literal: true } });
    h.unmount();

    // The file keeps the flag: the newest entry is the one sent again, then the typed command.
    h = renderApp({ history: InputHistory.forStateDir(stateDir).load() });
    await h.type('\x1b[A');
    expect(h.store.getState().editor).toMatchObject({ text: '!touch /tmp/never-run', literal: true });
    await h.type('\x1b[A');
    expect(h.store.getState().editor).toMatchObject({ text: '!echo typed', literal: false });
  });

  it('stays bounded, and skips damaged lines', () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'aish-history-'));
    const file = path.join(scratch, 'input-history');
    writeFileSync(file, ['"ok 1"', '{broken', '42', '"ok 2"'].join('\n') + '\n', { mode: 0o600 });
    const history = new InputHistory(file).load();
    expect(history.list()).toEqual(['ok 1', 'ok 2']);
    for (let index = 0; index < MAX_ENTRIES * 2 + 5; index++) history.add(`entry ${index}`);
    expect(history.list()).toHaveLength(MAX_ENTRIES);
    const reloaded = new InputHistory(file).load();
    expect(reloaded.list()).toHaveLength(MAX_ENTRIES);
    expect(reloaded.list()[MAX_ENTRIES - 1]).toBe(`entry ${MAX_ENTRIES * 2 + 4}`);
    expect(readFileSync(file, 'utf8').split('\n').length).toBeLessThanOrEqual(MAX_ENTRIES * 2 + 1);
  });
});

describe('input bar: completion', () => {
  it('completes :commands, subcommands, model names and aliases with Tab', async () => {
    h = renderApp();
    h.store.getState().applyMcpEvent({ type: 'server', snapshot: { alias: 'everything', target: 'x', state: 'ready', tools: [], stderr: [] } });
    await typeEach(':mo');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':model ');
    await typeEach('ol');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':model ollama ');
    await h.type('\x15');
    await typeEach(':mcp disc');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':mcp disconnect ');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':mcp disconnect everything ');
    expect(h.store.getState().focus).toBe('input');
  });

  it('completes saved session ids for :resume', async () => {
    h = renderApp({ env: { commands: [{ name: 'resume', args: ['session'] }], sessionIds: () => ['20250101-abc', '20250102-def'] } });
    await typeEach(':resume 20250102');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':resume 20250102-def ');
  });

  it('lists several candidates and cycles through them', async () => {
    h = renderApp();
    await typeEach(':mcp t');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':mcp tool');
    await h.type('\t');
    expect(h.screen()).toContain('tool  tools');
    expect(h.store.getState().editor.text).toBe(':mcp tool');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':mcp tools');
  });

  it('Tab moves the focus when the input is not a command', async () => {
    h = renderApp({ columns: 120 });
    await typeEach('hello');
    await h.type('\t');
    expect(h.store.getState().focus).toBe('sidebar');
    expect(h.store.getState().editor.text).toBe('hello');
  });
});

describe('input bar: typing never re-renders the transcript', () => {
  it('counts transcript renders while typing (none), and while a message streams (some)', async () => {
    let transcriptRenders = 0;
    const theme = createTheme({});
    h = renderApp({
      children: (
        <>
          <Profiler id="chat" onRender={() => transcriptRenders++}>
            <ChatContainer width={80} height={10} theme={theme} />
          </Profiler>
          <InputContainer width={80} maxRows={5} theme={theme} />
        </>
      ),
    });
    h.store.getState().addStatus('info', 'already here');
    await h.settle();
    const before = transcriptRenders;
    await typeEach('typing a long message does not touch the chat');
    await h.type('\x1b[D');
    await h.type('\x7f');
    await h.type('\x1b[200~pasted\x1b[201~');
    expect(h.store.getState().editor.text.length).toBeGreaterThan(40);
    expect(transcriptRenders).toBe(before);
    h.store.getState().applyConversationEvent({ type: 'text-delta', text: 'streamed' });
    await h.settle();
    expect(transcriptRenders).toBeGreaterThan(before);
  });
});
