import { describe, expect, it, vi } from 'vitest';
import { highlighterState } from '../../../src/transcript/highlight';
import { assistant, renderView } from './helpers';

// This file must not load the highlighter up front: it checks that nothing does until needed. So it
// runs in its own process (vitest.config.ts), where no earlier test file has loaded it.
describe('lazy syntax highlighting', () => {
  it('loads the highlighter on the first code block, then colours it in place', async () => {
    const view = renderView([assistant('Just prose, a `code span` and a list:\n\n- one\n- two')]);
    expect(highlighterState()).toBe('idle');

    const answer = assistant('Now code:\n\n```js\nconst x = 1;\n```');
    view.update({ items: [answer] });
    expect(['loading', 'ready']).toContain(highlighterState());
    expect(view.text()).toContain('const x = 1;');
    // The import is asynchronous: this frame is plain, the next one coloured.
    expect(view.lastFrame()).not.toMatch(/\x1b\[35m/);

    await vi.waitFor(() => expect(view.lastFrame()).toMatch(/\x1b\[35mconst/), { timeout: 10_000 });
    expect(highlighterState()).toBe('ready');
  });
});
