import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { renderApp, type Harness } from './render';

// A server's resources in the sidebar: listed under its tools once it is expanded, a changed
// (subscribed) one marked, server text sanitized, and Enter on one asks the session to show it.

const server: ServerSnapshot = { alias: 'docs', target: 'node docs.js', state: 'ready', transport: 'stdio', tools: [{ name: 'echo', inputSchema: {} }], stderr: [] };

let h: Harness;
afterEach(() => h?.unmount());

describe('sidebar: resources', () => {
  it('lists resources under the tools, marks a changed one, and Enter shows one', async () => {
    h = renderApp({ columns: 120, rows: 30 });
    h.store.getState().applyMcpEvent({ type: 'server', snapshot: server });
    h.store.getState().setResources('docs', [
      { uri: 'docs://guide', name: 'guide.md' },
      { uri: 'docs://news', name: 'news\x1b[31m.md', changed: true },
    ]);
    await h.settle();
    await h.type('\t');
    await h.type('\r');
    const screen = h.screen();
    expect(screen).toContain('├ echo');
    expect(screen).toContain('├ ◇ guide.md');
    expect(screen).toMatch(/└ ◇ news.*\.md ●/);
    expect(h.rawScreen()).not.toContain('\x1b[31m.md');
    await h.type('\x1b[B');
    await h.type('\x1b[B');
    await h.type('\r');
    expect(h.controller.submitted.at(-1)).toEqual({ text: ':resource docs:docs://guide' });
  });

  it('lists a template with its parameters; Enter puts @alias:<template> into the input', async () => {
    h = renderApp({ columns: 120, rows: 30 });
    h.store.getState().applyMcpEvent({ type: 'server', snapshot: server });
    h.store.getState().setResources('docs', [
      { uri: 'docs://guide', name: 'guide.md' },
      { uri: 'docs://page/{id}', name: 'Page', parameters: ['id'] },
    ]);
    await h.settle();
    await h.type('\t');
    await h.type('\r');
    expect(h.screen()).toContain('└ ⬚ Page {id}');
    for (let step = 0; step < 3; step += 1) await h.type('\x1b[B');
    const before = h.controller.submitted.length;
    await h.type('\r');
    expect(h.controller.submitted.length).toBe(before);
    expect(h.store.getState().editor.text).toBe('@docs:docs://page/{id}');
    expect(h.store.getState().focus).toBe('input');
  });
});
