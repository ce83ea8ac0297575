import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/services/config/errors';
import { aliasProblem } from '../../../src/services/config/schema';
import { aliasFromName, importMcpConfigs, parseMcpConfig, type ParsedMcpFile } from '../../../src/services/config/mcp-import';

const byName = (parsed: ParsedMcpFile) => Object.fromEntries(parsed.entries.map((entry) => [entry.name, entry.config]));

function errorLines(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('--mcp-config import', () => {
  it('reads the Claude Desktop / Cursor shape', () => {
    const servers = byName(parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' }, autoApprove: [] },
          remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
        },
      }),
      'claude.json',
    ));
    expect(servers).toEqual({
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' } },
      remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
    });
  });

  it('reads the VS Code shape with a type', () => {
    const servers = byName(parseMcpConfig(
      JSON.stringify({
        servers: {
          legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
          modern: { type: 'http', url: 'http://127.0.0.1:3001/mcp' },
          local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/srv' },
        },
      }),
      '.vscode/mcp.json',
    ));
    expect(servers).toEqual({
      legacy: { url: 'http://127.0.0.1:3001/sse', transport: 'sse' },
      modern: { url: 'http://127.0.0.1:3001/mcp', transport: 'http' },
      local: { command: 'node', args: ['server.js'], cwd: '/srv' },
    });
  });

  it('skips an entry that cannot work with a warning naming the file and the key, and keeps the others', () => {
    const parsed = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          nourl: { headers: {} },
          badurl: { url: 'ftp://example.com' },
          badargs: { command: 'x', args: 'not-an-array' },
          badtype: { type: 'websocket', url: 'http://x' },
          'bad name': { command: 'x' },
          good: { command: 'node' },
        },
      }),
      'my.json',
    );
    expect(parsed.notices).toEqual([
      { level: 'warn', text: 'my.json: mcpServers.nourl: needs "command" (stdio) or "url" (HTTP); this server is skipped' },
      { level: 'warn', text: 'my.json: mcpServers.badurl.url: expected a URL, got "ftp://example.com"; this server is skipped' },
      { level: 'warn', text: 'my.json: mcpServers.badargs.args: expected array, got "not-an-array"; this server is skipped' },
      { level: 'warn', text: 'my.json: mcpServers.badtype.type: expected "stdio", "http" or "sse", got "websocket"; this server is skipped' },
    ]);
    // A name that is not an alias is no reason to skip: importMcpConfigs gives it one.
    expect(parsed.entries.map((entry) => entry.name)).toEqual(['bad name', 'good']);
  });

  it('still refuses a file that is not a server list', () => {
    expect(errorLines(() => parseMcpConfig('{not json', 'x.json'))[0]).toMatch(/^x\.json: not valid JSON/);
    expect(errorLines(() => parseMcpConfig('{"other": {}}', 'x.json'))).toEqual(['x.json: no "mcpServers" (or "servers") object found']);
  });

  it.each([
    ['github.com/org/memory', 'github_com_org_memory'],
    ['with.dot', 'with_dot'],
    ['a__b', 'a_b'],
    ['_lead_and_trail_', 'lead_and_trail'],
    ['', 'server'],
    ['...', 'server'],
    ['café', 'cafe'],
    ['@modelcontextprotocol/server-filesystem', 'modelcontextprotocol_server-file'],
  ])('derives a valid alias from %j: %s', (name, alias) => {
    expect(aliasFromName(name)).toBe(alias);
    expect(aliasProblem(alias)).toBeUndefined();
  });

  it('merges files into the configured servers; a later definition of the same alias is skipped with a warning', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-import-'));
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ mcpServers: { fromfile: { command: 'node' } } }));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ mcpServers: { mine: { command: 'node' }, other: { command: 'node' } } }));
    const merged = await importMcpConfigs(['a.json'], { mine: { url: 'http://127.0.0.1:1/mcp' } }, { cwd: dir });
    expect(Object.keys(merged.servers)).toEqual(['mine', 'fromfile']);
    expect(merged.notices).toEqual([]);
    const clash = await importMcpConfigs(['b.json'], { mine: { url: 'http://127.0.0.1:1/mcp' } }, { cwd: dir, configLabel: 'config.ts' });
    expect(clash.servers).toEqual({ mine: { url: 'http://127.0.0.1:1/mcp' }, other: { command: 'node' } });
    expect(clash.notices).toEqual([{ level: 'warn', text: 'b.json: mcpServers.mine: server "mine" is already defined in config.ts; this one is skipped' }]);
    await expect(importMcpConfigs(['missing.json'], {}, { cwd: dir })).rejects.toThrow('--mcp-config missing.json: file not found');
  });

  it('gives names that are not aliases a derived one, deterministically, and says so', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-import-'));
    // The names Cline and VS Code files use, an empty one, and two that derive the same alias.
    const file = {
      mcpServers: {
        'github.com/org/memory': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        'with.dot': { url: 'http://127.0.0.1:1/mcp' },
        with_dot: { url: 'http://127.0.0.1:2/mcp' },
        'with/dot': { url: 'http://127.0.0.1:3/mcp' },
        a__b: { command: 'node' },
        '': { command: 'node' },
        broken: { args: ['nothing to run'] },
      },
    };
    writeFileSync(path.join(dir, 'cline.json'), JSON.stringify(file));
    const first = await importMcpConfigs(['cline.json'], {}, { cwd: dir });
    expect(Object.keys(first.servers)).toEqual(['github_com_org_memory', 'with_dot-2', 'with_dot', 'with_dot-3', 'a_b', 'server']);
    expect(first.servers['with_dot-2']).toEqual({ url: 'http://127.0.0.1:1/mcp' });
    expect(first.servers.with_dot).toEqual({ url: 'http://127.0.0.1:2/mcp' });
    expect(first.notices).toEqual([
      { level: 'warn', text: 'cline.json: mcpServers.broken: needs "command" (stdio) or "url" (HTTP); this server is skipped' },
      {
        level: 'info',
        text: 'cline.json: server "github.com/org/memory" is named github_com_org_memory (alias "github.com/org/memory" may only use letters, digits, "_" and "-"); its tools appear as github_com_org_memory__<tool>',
      },
      { level: 'info', text: expect.stringMatching(/^cline\.json: server "with\.dot" is named with_dot-2 \(/) },
      { level: 'info', text: expect.stringMatching(/^cline\.json: server "with\/dot" is named with_dot-3 \(/) },
      { level: 'info', text: expect.stringMatching(/^cline\.json: server "a__b" is named a_b \(alias "a__b" must not contain "__"/) },
      { level: 'info', text: 'cline.json: server "" is named server (an alias must not be empty); its tools appear as server__<tool>' },
    ]);
    for (const alias of Object.keys(first.servers)) expect(aliasProblem(alias)).toBeUndefined();
    // The same file gives the same aliases every time: approval rules and pinned tools keep matching.
    expect(Object.keys((await importMcpConfigs(['cline.json'], {}, { cwd: dir })).servers)).toEqual(Object.keys(first.servers));
  });
});
