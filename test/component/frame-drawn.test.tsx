import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import type { ToolCallView } from '../../src/services/conversation/types';
import { askApproval, proposeCommand } from './frames';
import { useRenderedApp, type Harness } from './render';

// A key answers the frame that was drawn, never one that took its place in the store before the
// screen caught up. The store changes at once; React draws the new head a tick later, and a key
// read in between (after a stall long enough for the key delay to be over) must not reach the
// frame the user has not seen.

const call = (id: string, message: string): ToolCallView => ({
  id,
  wireName: 'files__write_file',
  alias: 'files',
  tool: 'write_file',
  description: 'Writes a file',
  rawArguments: JSON.stringify({ message }),
  arguments: { message },
});

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

/** Moves the clock past the key delay without running timers or letting React draw. */
function stallPastDelay() {
  vi.setSystemTime(Date.now() + APPROVAL_DELAY_MS + 100);
}

describe('frame keys: only the drawn frame can be answered', () => {
  it('a second approval that replaced the first between draw and key is not allowed by that key', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const first = await askApproval(h, call('a', 'first'), 1, 2);
    const second = await askApproval(h, call('b', 'second'), 2, 2);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    expect(h.screen()).toContain('"message": "first"');

    // The first is answered elsewhere (its own key handled, or a cancel): the store's head is now
    // the second, but the screen still shows the first when the next key arrives.
    h.store.getState().answerApproval({ action: 'deny' }, 'a');
    stallPastDelay();
    h.keys.feed('y');
    await h.settle();
    expect(first.answer).toEqual({ action: 'deny' });
    expect(second.answer).toBeUndefined();
    expect(h.screen()).toContain('"message": "second"');
    // Once drawn and past its own delay, the second takes its key as usual.
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('y');
    expect(second.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('a command that became the head while an approval was on screen is not run by the key meant for the approval', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const approval = await askApproval(h, call('a', 'first'));
    const command = await proposeCommand(h, 'rm -rf build', 'cmd-1');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    expect(h.screen()).toContain('Run this tool?');

    h.store.getState().answerApproval({ action: 'deny' }, 'a');
    stallPastDelay();
    h.keys.feed('y');
    await h.settle();
    expect(approval.answer).toEqual({ action: 'deny' });
    expect(command.answer).toBeUndefined();
    expect(h.screen()).toContain('Run this command?');
    expect(h.screen()).toContain('$ rm -rf build');
  });

  it('a command queued behind an approval gets its own key delay from when it is drawn, not from when it was queued', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const approval = await askApproval(h, call('a', 'first'));
    const command = await proposeCommand(h, 'rm -rf build', 'cmd-1');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('y');
    expect(approval.answer).toEqual({ action: 'allow', scope: 'once' });
    expect(h.screen()).toContain('Run this command?');

    // A second press meant for the approval (a double tap) lands on the command just drawn: it
    // answers nothing and stays in the input as typing.
    await vi.advanceTimersByTimeAsync(100);
    await h.type('y');
    expect(command.answer).toBeUndefined();
    expect(h.screen()).toContain('your typing stays in the input');
    expect(h.store.getState().editor.text).toBe('y');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS);
    await h.type('y');
    expect(command.answer).toEqual({ action: 'run', command: 'rm -rf build' });
  });

  it('a command shown again after an approval preempted it waits out the delay again', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const command = await proposeCommand(h, 'make deploy', 'cmd-1');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    expect(h.screen()).toContain('$ make deploy');
    const approval = await askApproval(h, call('a', 'first'));
    expect(h.screen()).toContain('Run this tool?');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('n');
    expect(approval.answer).toEqual({ action: 'deny' });
    expect(h.screen()).toContain('$ make deploy');
    await vi.advanceTimersByTimeAsync(100);
    await h.type('y');
    expect(command.answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS);
    await h.type('y');
    expect(command.answer).toEqual({ action: 'run', command: 'make deploy' });
  });
});
