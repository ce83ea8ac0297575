import { describe, expect, it, vi } from 'vitest';

// Colour on, so the focused button's inverse video is in the frame Ink draws.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import { makeKey } from '../../src/terminal/keyboard/keys';
import type { ApprovalAnswer, ToolCallView } from '../../src/services/conversation/types';
import { askApproval } from './frames';
import { useRenderedApp, type Harness } from './render';

const echo = (fields: Partial<ToolCallView> = {}): ToolCallView => ({
  id: 'call-1',
  wireName: 'everything__echo',
  alias: 'everything',
  tool: 'echo',
  description: 'Echoes back the input\nSecond line of the description',
  rawArguments: '{"message":"hi"}',
  arguments: { message: 'hi' },
  ...fields,
});

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

/** Queues a frame and returns a probe of its answer. */
const ask = (call: ToolCallView, position = 1, count = 1) => askApproval(h, call, position, count);

async function pastDelay() {
  await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
}

describe('approval frame: what it shows', () => {
  it('shows server, tool, the first description line and the arguments as pretty JSON, with the keys', async () => {
    h = app.render({ columns: 140, rows: 30 });
    await ask(echo());
    const screen = h.screen();
    expect(screen).toContain('Run this tool?');
    expect(screen).toContain('call everything__echo');
    expect(screen).toContain('server everything · tool echo');
    expect(screen).toContain('Echoes back the input');
    expect(screen).not.toContain('Second line of the description');
    expect(screen).toContain('"message": "hi"');
    await pastDelay();
    expect(h.screen()).toMatch(/\[y once\] \[t tool\] \[s server\] \[n deny\] \[e reason\] \[a edit\] \[r rule\]/);
    expect(h.screen()).toContain('y once · t tool · s server · n deny · e reason');
  });

  it('escapes hostile text in names, description and arguments; nothing raw reaches the terminal', async () => {
    h = app.render({ columns: 100, rows: 30 });
    await ask(
      echo({
        wireName: 'evil__x\x1b[2J',
        tool: 'x\u202e',
        description: 'Looks fine\x1b]52;c;ZWNobyBoaQ==\x07',
        rawArguments: 'not json \x1b[31mred\x9b1m',
        arguments: undefined,
      }),
    );
    const raw = h.rawScreen();
    expect(raw).not.toContain('\x1b[2J');
    expect(raw).not.toContain('\x1b]52');
    expect(raw).not.toContain('\x9b');
    expect(raw).not.toContain('\u202e');
    const screen = h.screen();
    expect(screen).toContain('evil__x\\x1b[2J');
    expect(screen).toContain('x<U+202E>');
    expect(screen).toContain('Looks fine\\x1b]52;c;ZWNobyBoaQ==\\x07');
    expect(screen).toContain('arguments (not valid JSON, shown as sent)');
    expect(screen).toContain('not json \\x1b[31mred\\x9b1m');
  });

  it('marks invisible characters inside the arguments (zero-width, joiners, variation selectors, tags)', async () => {
    h = app.render({ columns: 100, rows: 30 });
    await ask(echo({ rawArguments: '{"path":"/etc/pa\u200bss\u200dwd\ufe0f\u{e0041}"}', arguments: { path: '/etc/pa\u200bss\u200dwd\ufe0f\u{e0041}' } }));
    const screen = h.screen();
    expect(screen).toContain('/etc/pa<U+200B>ss<U+200D>wd<U+FE0F><U+E0041>');
    expect(h.rawScreen()).not.toMatch(/[\u200b\u200d\ufe0f]|\u{e0041}/u);
  });

  it('collapses long runs of spaces and empty lines to visible markers', async () => {
    h = app.render({ columns: 100, rows: 30 });
    await ask(echo({ arguments: undefined, rawArguments: `ls${' '.repeat(300)}&& rm -rf ~${'\n'.repeat(40)}tail` }));
    const screen = h.screen();
    expect(screen).toContain('ls⟨300 spaces⟩&& rm -rf ~');
    expect(screen).toContain('⟨39 empty lines⟩');
    expect(screen).toContain('tail');
  });

  it('shows the queue position and a changed definition prominently', async () => {
    h = app.render({ columns: 100, rows: 30 });
    await ask(echo({ definitionChanged: 'description changed' }), 1, 3);
    const screen = h.screen();
    expect(screen).toContain('1 of 3');
    expect(screen).toContain('▲ This tool changed since it was first seen or last approved:');
    expect(screen).toContain('description changed. Earlier "always" approvals are suspended');
  });

  it('fits 80 columns with short button labels and never draws wider than the terminal', async () => {
    h = app.render({ columns: 80, rows: 24 });
    await ask(echo());
    await pastDelay();
    const lines = h.screen().split('\n');
    expect(lines.every((line) => line.length <= 80)).toBe(true);
    expect(h.screen()).toMatch(/\[y once\] \[t tool\] \[s server\] \[n deny\] \[e reason\]/);
  });
});

describe('approval frame: keys', () => {
  const cases: Array<[string, string, ApprovalAnswer]> = [
    ['y', 'y', { action: 'allow', scope: 'once' }],
    ['t', 't', { action: 'allow', scope: 'tool' }],
    ['s', 's', { action: 'allow', scope: 'server' }],
    ['n', 'n', { action: 'deny' }],
    ['Esc', '\x1b', { action: 'deny' }],
  ];
  for (const [label, input, expected] of cases) {
    it(`${label} answers ${JSON.stringify(expected)}`, async () => {
      h = app.render();
      const probe = await ask(echo());
      await pastDelay();
      h.keys.feed(input);
      await vi.advanceTimersByTimeAsync(50);
      expect(probe.answer).toEqual(expected);
      expect(h.screen()).not.toContain('Run this tool?');
    });
  }

  it('e opens a reason line; Enter denies with the reason', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('e');
    expect(h.screen()).toContain('Reason:');
    expect(h.screen()).toContain('Enter confirm · Esc back');
    for (const char of 'not now') await h.type(char);
    expect(h.screen()).toContain('Reason: not now');
    await h.type('\r');
    expect(probe.answer).toEqual({ action: 'deny', reason: 'not now' });
  });

  it('Esc in the reason line goes back to the buttons', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('e');
    await h.type('\x1b');
    await vi.advanceTimersByTimeAsync(60);
    expect(h.screen()).not.toContain('Reason:');
    expect(probe.answer).toBeUndefined();
  });

  it('arrows move the highlighted button and Enter presses it', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('\x1b[D');
    await h.type('\x1b[D');
    await h.type('\x1b[D');
    await h.type('\x1b[C');
    await h.type('\x1b[D');
    // The focused button is drawn inverse.
    expect(h.rawScreen()).toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*\[y once\]/);
    expect(h.rawScreen()).not.toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*\[n deny\]/);
    await h.type('\r');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('a new frame starts on deny: Enter alone never allows', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    // A scroll key (nothing to scroll) draws the frame again with its keys armed.
    await h.type('\x1b[B');
    expect(h.rawScreen()).toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*\[n deny\]/);
    await h.type('\r');
    expect(probe.answer).toEqual({ action: 'deny' });
  });

  it('answers the queue in order, each frame with its own delay', async () => {
    h = app.render();
    const first = await ask(echo({ id: 'a' }), 1, 2);
    const second = await ask(echo({ id: 'b', arguments: { message: 'second' }, rawArguments: '{"message":"second"}' }), 2, 2);
    await pastDelay();
    await h.type('y');
    expect(first.answer).toEqual({ action: 'allow', scope: 'once' });
    expect(h.screen()).toContain('"message": "second"');
    expect(h.screen()).toContain('2 of 2');
    await h.type('y');
    expect(second.answer).toBeUndefined();
    await pastDelay();
    await h.type('n');
    expect(second.answer).toEqual({ action: 'deny' });
  });
});

describe('approval frame: what you approve is what you saw', () => {
  it(`ignores approval keys for ${APPROVAL_DELAY_MS} ms after the frame appears`, async () => {
    h = app.render();
    const probe = await ask(echo());
    // An early Enter (on deny) is the frame's, and answers nothing yet.
    await h.type('\r');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS - 100);
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('the frame just appeared');
    await vi.advanceTimersByTimeAsync(150);
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('every key while the guard runs restarts it, and what was typed stays in the input', async () => {
    h = app.render();
    const probe = await ask(echo());
    // Someone typing a sentence as the frame appears: one key every 300 ms (each under the delay)
    // keeps the guard running, so none of its y / t / s / e / n answers anything.
    for (const char of 'yes, sent') {
      await h.type(char);
      await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS - 100);
    }
    expect(probe.answer).toBeUndefined();
    expect(h.store.getState().approvals).toHaveLength(1);
    expect(h.store.getState().editor.text).toBe('yes, sent');
    expect(h.screen()).toContain('your typing stays in the input');
    // Backspace edits it too; Enter is the frame's (it does not send) and answers nothing yet.
    await h.type('\x7f');
    await h.type('\r');
    expect(probe.answer).toBeUndefined();
    expect(h.store.getState().editor.text).toBe('yes, sen');
    // Once the keys stop for the whole delay, the frame takes its keys.
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
    expect(h.store.getState().editor.text).toBe('yes, sen');
  });

  it('a paste never approves, whatever it contains', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('\x1b[200~y\x1b[201~');
    await h.type('\x1b[200~\r\x1b[201~');
    await h.type('\x1b[200~t\ry\r\x1b[201~');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('pasted text never answers a frame');
  });

  it('keys typed ahead in one burst never approve', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('yy');
    await h.type('ok\r');
    await h.type('y\r');
    expect(probe.answer).toBeUndefined();
  });

  it('a key read before the frame appeared never answers it', async () => {
    h = app.render();
    const probe = await ask(echo());
    const shownAt = h.store.getState().approvals[0]!.shownAt;
    await pastDelay();
    h.keys.dispatch(makeKey('text', { text: 'y', at: shownAt - 5 }));
    await h.settle();
    expect(probe.answer).toBeUndefined();
  });

  it('terminal replies arriving on stdin are never read as keys', async () => {
    h = app.render();
    const probe = await ask(echo());
    await pastDelay();
    await h.type('\x1b[12;1R');
    await h.type('\x1b]11;rgb:yyyy/yyyy/yyyy\x07');
    await h.type('\x1b[?1;2c');
    await h.type('\x1bP>|y\x1b\\');
    expect(probe.answer).toBeUndefined();
    expect(h.keys.droppedReplies).toBe(4);
  });

  it('long arguments scroll inside the frame and the allow keys wait until all of it was on screen', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const args = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`key${index}`, `value ${index}`]));
    const probe = await ask(echo({ arguments: args, rawArguments: JSON.stringify(args) }));
    await pastDelay();
    expect(h.screen()).toContain('read every line first');
    expect(h.screen()).not.toContain('"key59"');
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('read the whole call first');
    // End shows the bottom, but the rows it jumped over were never on screen: still locked.
    await h.type('\x1b[F');
    expect(h.screen()).toContain('"key59": "value 59"');
    expect(h.screen()).toContain('read every line first');
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('read the whole call first');
    // Paged through from the top, every row has been on screen.
    await h.type('\x1b[H');
    await h.type('\x1b[6~');
    expect(probe.answer).toBeUndefined();
    for (let page = 0; page < 8; page++) await h.type('\x1b[6~');
    expect(h.screen()).not.toContain('read every line first');
    // Scrolling back up does not lock again: everything has been seen.
    await h.type('\x1b[H');
    await h.type('t');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'tool' });
  });

  it('on a terminal too small for the whole frame, allowing is refused and denying still works', async () => {
    h = app.render({ columns: 80, rows: 8 });
    const probe = await ask(echo());
    await pastDelay();
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('read the whole call first');
    await h.type('n');
    expect(probe.answer).toEqual({ action: 'deny' });
  });

  it('denying works without reading everything', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const args = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`key${index}`, index]));
    const probe = await ask(echo({ arguments: args, rawArguments: JSON.stringify(args) }));
    await pastDelay();
    await h.type('n');
    expect(probe.answer).toEqual({ action: 'deny' });
  });

  it('a frame is modal: letters do not reach the input while it is shown', async () => {
    h = app.render();
    await ask(echo());
    await pastDelay();
    await h.type('h');
    await h.type('i');
    expect(h.store.getState().editor.text).toBe('');
  });

  it('Ctrl+C still cancels while a frame is shown', async () => {
    h = app.render();
    h.controller.running = true;
    await ask(echo());
    await h.type('\x03');
    expect(h.controller.cancelled).toBe(1);
  });
});
