import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { renderApp, type Harness } from './render';

const schema = { type: 'object', properties: { message: { type: 'string', description: 'what to echo' } }, required: ['message'] };

const servers: ServerSnapshot[] = [
  {
    alias: 'everything',
    target: 'npx server-everything',
    state: 'ready',
    transport: 'stdio',
    tools: [
      { name: 'echo', description: 'Echoes back the input', inputSchema: schema },
      { name: 'add', description: 'Adds two numbers', inputSchema: { type: 'object' } },
    ],
    stderr: [],
  },
  { alias: 'builtin', target: 'built-in', state: 'ready', transport: 'in-memory', tools: [{ name: 'calculator', inputSchema: {} }], stderr: [] },
  {
    alias: 'broken',
    target: 'node crash.js',
    state: 'error',
    transport: 'stdio',
    error: 'process exited with code 1 during initialize',
    tools: [],
    stderr: ['Error: cannot find module x', 'at require (node:internal)', '\x1b[31mred\x1b[0m line'],
  },
  {
    alias: 'cloud',
    target: 'https://mcp.example.com/mcp',
    state: 'needs-auth',
    transport: 'streamable-http',
    error: 'the server asks for authorization',
    authUrl: 'https://auth.example.com/authorize?client_id=aish&state=xyz',
    tools: [],
    stderr: [],
  },
  { alias: 'slow', target: 'http://127.0.0.1:9/mcp', state: 'connecting', tools: [], stderr: [] },
  { alias: 'gone', target: 'http://127.0.0.1:9/mcp', state: 'disconnected', transport: 'streamable-http', tools: [], stderr: [] },
];

let h: Harness;
afterEach(() => h?.unmount());

async function withServers(columns = 160, rows = 40) {
  h = renderApp({ columns, rows });
  for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
  await h.settle();
}

async function focusSidebar() {
  await h.type('\t');
  expect(h.store.getState().focus).toBe('sidebar');
}

describe('sidebar', () => {
  it('lists every server with a status glyph, alias, transport and tool count', async () => {
    await withServers();
    const screen = h.screen();
    expect(screen).toContain('MCP servers 2/6 ready');
    expect(screen).toMatch(/● everything\s+stdio 2/);
    expect(screen).toMatch(/● builtin\s+built-in 1/);
    expect(screen).toMatch(/✗ broken\s+stdio -/);
    expect(screen).toMatch(/⚿ cloud\s+http -/);
    expect(screen).toMatch(/◌ slow\s+http …/);
    expect(screen).toMatch(/○ gone\s+http -/);
    expect(screen).toContain('mcp 2/6');
  });

  it('shows an error reason, the last stderr lines (escaped) and where to authorize', async () => {
    await withServers();
    const screen = h.screen();
    expect(screen).toContain('process exited with code');
    expect(screen).toContain('Error: cannot find');
    expect(screen).toContain('during initialize');
    // Colour codes from stderr are dropped, never sent to the terminal.
    expect(screen).toContain('red line');
    expect(h.rawScreen()).not.toContain('\x1b[31mred');
    // The authorization URL is shown whole (wrapped), so it can be copied.
    const joined = screen
      .split('\n')
      .map((line) => line.match(/│ {5}(\S*)\s*│\s*$/)?.[1] ?? '')
      .join('');
    expect(joined).toContain('https://auth.example.com/authorize?client_id=aish&state=xyz');
  });

  it('Tab focuses it, ↑/↓ select, Enter expands a server and opens a tool with its full schema', async () => {
    await withServers();
    await focusSidebar();
    expect(h.screen()).toContain('↑↓ select · Enter open · i info · r reconnect · d disconnect · c connect');
    // Focusing selects the first server: the cursor column shows it, the expand marker is apart.
    expect(h.screen()).toMatch(/›▸● everything/);
    await h.type('\r');
    expect(h.screen()).toMatch(/›▾● everything/);
    expect(h.screen()).toContain('├ echo');
    expect(h.screen()).toContain('└ add');
    await h.type('\x1b[B');
    await h.type('\r');
    const screen = h.screen();
    expect(screen).toContain('everything__echo');
    expect(screen).toContain('Echoes back the input');
    expect(screen).toContain('input schema');
    expect(screen).toContain('"description": "what to echo"');
    expect(screen).toContain('"required": [');
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await h.settle();
    expect(h.screen()).not.toContain('input schema');
    expect(h.store.getState().focus).toBe('sidebar');
  });

  it('scrolls a long schema inside the details view', async () => {
    await withServers(160, 24);
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`field${index}`, { type: 'string' }]));
    h.store.getState().applyMcpEvent({
      type: 'server',
      snapshot: { ...servers[0]!, tools: [{ name: 'big', description: 'many fields', inputSchema: { type: 'object', properties } }] },
    });
    h.store.getState().updateSidebarUi({ selected: 't:everything:big', expanded: ['everything'] });
    h.store.getState().setFocus('sidebar');
    await h.settle();
    await h.type('\r');
    expect(h.screen()).toContain('many fields');
    expect(h.screen()).not.toContain('field39');
    await h.type('\x1b[F');
    expect(h.screen()).toContain('"field39"');
    expect(h.screen()).toMatch(/lines \d+–\d+ of \d+/);
  });

  it('r reconnects and d disconnects the selected server, c opens the connect prompt', async () => {
    await withServers();
    await focusSidebar();
    await h.type('\x1b[B');
    await h.type('\x1b[B');
    await h.type('r');
    await h.type('d');
    expect(h.controller.actions).toEqual(['reconnect broken', 'disconnect broken']);
    expect(h.screen()).toContain('disconnecting broken');
    await h.type('c');
    expect(h.screen()).toContain('Connect an MCP server');
    for (const char of 'not a url') await h.type(char);
    await h.type('\r');
    expect(h.screen()).toContain('expected an http:// or https:// URL');
    await h.type('\x15');
    for (const char of 'http://127.0.0.1:3001/mcp') await h.type(char);
    await h.type('\r');
    for (const char of 'bad__alias') await h.type(char);
    await h.type('\r');
    expect(h.screen()).toContain('must not contain "__"');
    await h.type('\x17');
    for (const char of 'local') await h.type(char);
    await h.type('\r');
    expect(h.controller.actions[2]).toBe('connect http://127.0.0.1:3001/mcp local');
    expect(h.screen()).not.toContain('Connect an MCP server');
  });

  it('Esc closes the connect prompt without connecting; an empty alias is left to the session', async () => {
    await withServers();
    await focusSidebar();
    await h.type('c');
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await h.settle();
    expect(h.screen()).not.toContain('Connect an MCP server');
    await h.type('c');
    await h.type('\x1b[200~https://mcp.example.org/mcp\x1b[201~');
    await h.type('\r');
    await h.type('\r');
    expect(h.controller.actions).toEqual(['connect https://mcp.example.org/mcp']);
  });

  it('Ctrl+S toggles it, and it hides itself on a narrow terminal', async () => {
    await withServers(160, 30);
    expect(h.screen()).toContain('MCP servers');
    await h.type('\x13');
    expect(h.screen()).not.toContain('MCP servers');
    await h.type('\x13');
    expect(h.screen()).toContain('MCP servers');
    // Focus on the sidebar goes back to the input when the terminal gets too narrow for it.
    h.unmount();
    await withServers(160, 30);
    await h.type('\t');
    expect(h.store.getState().focus).toBe('sidebar');
    h.stdout.resize(80, 24);
    await h.settle();
    expect(h.screen()).not.toContain('MCP servers');
    expect(h.store.getState().focus).toBe('input');
    h.unmount();
    await withServers(80, 24);
    expect(h.screen()).not.toContain('MCP servers');
    // Tab skips the hidden sidebar.
    await h.type('\t');
    expect(h.store.getState().focus).toBe('chat');
  });
});
