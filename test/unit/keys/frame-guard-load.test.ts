import { describe, expect, it } from 'vitest';
import { APPROVAL_DELAY_MS, frameKey, newFrameUi, type FrameKeyContext } from '../../../src/ui/keys/frameKeys';
import { KeyInput, type InputSource } from '../../../src/terminal/keyboard/keyInput';
import type { KeyEvent } from '../../../src/terminal/keyboard/keys';

// The key guard under load (docs/ARCHITECTURE.md, Security invariants 9): keys go through the real
// reader (KeyInput, with its stall watch) into the frame's key rules. When the app is busy, keys
// wait unread; a key read after a long stall may have been typed before the frame appeared, so it
// counts from the start of the stall. A single key typed after the frame was up, read on its own,
// answers it however late the read comes.

const SHOWN_AT = 10_000;
const BEAT = 50;
const context: FrameKeyContext = { kind: 'approval', shownAt: SHOWN_AT, total: 3, viewport: 10 };

function reader() {
  let clock = 0;
  const source: InputSource = { on: () => undefined };
  const input = new KeyInput(source, { now: () => clock, stallBeatMs: BEAT });
  const keys: KeyEvent[] = [];
  input.subscribe((key) => {
    keys.push(key);
    return true;
  });
  return {
    /** The app is free from `from` to `to`: the stall watch beats meanwhile. */
    idle(from: number, to: number) {
      for (clock = from; clock <= to; clock += BEAT) input.beat();
      clock = to;
    },
    /** The bytes are read at `at` (one read). */
    read(chunk: string, at: number): KeyEvent[] {
      clock = at;
      const start = keys.length;
      input.feed(chunk);
      return keys.slice(start);
    },
  };
}

const answer = (key: KeyEvent) => frameKey(newFrameUi('f', 10, 80), key, context);

describe('the frame guard under load', () => {
  it('a single y typed after the frame was up, read on its own after a long stall, answers it', () => {
    const keyboard = reader();
    keyboard.idle(0, SHOWN_AT + APPROVAL_DELAY_MS + 100);
    // The app is busy from here on for 2 s (a long render); the y arrives meanwhile and is read after.
    const [y] = keyboard.read('y', SHOWN_AT + APPROVAL_DELAY_MS + 2_100);
    expect(y).toMatchObject({ name: 'text', text: 'y', burst: false, since: SHOWN_AT + APPROVAL_DELAY_MS + 100 });
    expect(answer(y!).answer?.answer.action).toBe('allow');
  });

  it('a single y when the app was never busy answers it, at the read time', () => {
    const keyboard = reader();
    keyboard.idle(0, SHOWN_AT + APPROVAL_DELAY_MS + 20);
    const [y] = keyboard.read('y', SHOWN_AT + APPROVAL_DELAY_MS + 30);
    expect(y!.since).toBeUndefined();
    expect(answer(y!).answer?.answer.action).toBe('allow');
  });

  it('a y typed before the frame appeared, read only after it because the app was busy, never answers it', () => {
    const keyboard = reader();
    // Free until just before the frame; then busy (the frame is made and drawn meanwhile) for 1.5 s.
    keyboard.idle(0, SHOWN_AT - 30);
    const [y] = keyboard.read('y', SHOWN_AT + 1_500);
    expect(y!.burst).toBe(false);
    // By the read time alone it would look typed 1.5 s after the frame appeared.
    expect(y!.at - SHOWN_AT).toBeGreaterThan(APPROVAL_DELAY_MS);
    const result = answer(y!);
    expect(result.answer).toBeUndefined();
    // It goes on to the input as typing, with the reason said.
    expect(result.handled).toBe(false);
  });

  it('pasted text and keys read together never answer, even long after the frame appeared', () => {
    const keyboard = reader();
    keyboard.idle(0, SHOWN_AT + 5_000);
    const pasted = keyboard.read('\x1b[200~y\x1b[201~', SHOWN_AT + 5_010);
    expect(pasted.map((key) => answer(key).answer)).toEqual([undefined]);
    keyboard.idle(SHOWN_AT + 5_010, SHOWN_AT + 6_000);
    const together = keyboard.read('yy', SHOWN_AT + 6_010);
    expect(together.every((key) => key.burst)).toBe(true);
    expect(together.map((key) => answer(key).answer)).toEqual(together.map(() => undefined));
    keyboard.idle(SHOWN_AT + 6_010, SHOWN_AT + 7_000);
    const withEnter = keyboard.read('y\r', SHOWN_AT + 7_010);
    expect(withEnter.map((key) => answer(key).answer)).toEqual(withEnter.map(() => undefined));
  });
});
