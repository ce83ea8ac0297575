import { describe, expect, it } from 'vitest';
import { newFrameUi } from '../../src/ui/keys/frameKeys';
import { approvalParts, layoutApproval } from '../../src/ui/panels/ApprovalFrame';
import { innerWidth } from '../../src/ui/panels/BoxFrame';
import { MIN_FRAME_HEIGHT } from '../../src/ui/panels/frameLayout';
import type { Line } from '../../src/ui/panels/text';

// On a screen so short that the buttons share one row cut with `…`, Enter answers with the
// focused button: that one must be on screen, whichever it is.

const text = (line: Line) => line.map((segment) => segment.text).join('');
const view = { id: 'call-1', wireName: 'files__write_file', alias: 'files', tool: 'write_file', rawArguments: '{"path":"a"}', arguments: { path: 'a' } };
const LABELS = ['y once', 't tool', 's server', 'n deny', 'e reason'];

describe('the one-row footer of a cramped frame', () => {
  for (const width of [20, 24, 30]) {
    it(`shows the focused button first at width ${width}`, () => {
      for (let button = 0; button < LABELS.length; button++) {
        const layout = layoutApproval({ parts: approvalParts(view, innerWidth(width)), width, maxHeight: MIN_FRAME_HEIGHT, ui: { ...newFrameUi(view.id, 0, width), button }, armed: true });
        const footer = text(layout.rows.at(-1)!);
        const key = LABELS[button]![0]!;
        expect(footer, `button ${button} at ${width}: ${footer}`).toMatch(new RegExp(`^\\[${key}\\b`));
      }
    });
  }
});
