import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/services/config/errors';
import { importMcpConfigs, parseMcpConfig } from '../../../src/services/config/mcp-import';

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
    const servers = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' }, autoApprove: [] },
          remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
        },
      }),
      'claude.json',
    );
    expect(servers).toEqual({
      everything: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: { DEBUG: '1' } },
      remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Team': 'a' } },
    });
  });

  it('reads the VS Code shape with a type', () => {
    const servers = parseMcpConfig(
      JSON.stringify({
        servers: {
          legacy: { type: 'sse', url: 'http://127.0.0.1:3001/sse' },
          modern: { type: 'http', url: 'http://127.0.0.1:3001/mcp' },
          local: { type: 'stdio', command: 'node', args: ['server.js'], cwd: '/srv' },
        },
      }),
      '.vscode/mcp.json',
    );
    expect(servers).toEqual({
      legacy: { url: 'http://127.0.0.1:3001/sse', transport: 'sse' },
      modern: { url: 'http://127.0.0.1:3001/mcp', transport: 'http' },
      local: { command: 'node', args: ['server.js'], cwd: '/srv' },
    });
  });

  it('names the file and the key in every error', () => {
    const lines = errorLines(() =>
      parseMcpConfig(
        JSON.stringify({
          mcpServers: {
            'bad name': { command: 'x' },
            'a__b': { command: 'x' },
            nourl: { headers: {} },
            badurl: { url: 'ftp://example.com' },
            badargs: { command: 'x', args: 'not-an-array' },
            badtype: { type: 'websocket', url: 'http://x' },
          },
        }),
        'my.json',
      ),
    );
    expect(lines).toEqual([
      'my.json: mcpServers."bad name": alias "bad name" may only use letters, digits, "_" and "-"',
      'my.json: mcpServers.a__b: alias "a__b" must not contain "__" (it separates alias and tool)',
      'my.json: mcpServers.nourl: needs "command" (stdio) or "url" (HTTP)',
      'my.json: mcpServers.badurl.url: expected a URL, got "ftp://example.com"',
      'my.json: mcpServers.badargs.args: expected array, got "not-an-array"',
      'my.json: mcpServers.badtype.type: expected "stdio", "http" or "sse", got "websocket"',
    ]);
    expect(errorLines(() => parseMcpConfig('{not json', 'x.json'))[0]).toMatch(/^x\.json: not valid JSON/);
    expect(errorLines(() => parseMcpConfig('{"other": {}}', 'x.json'))).toEqual(['x.json: no "mcpServers" (or "servers") object found']);
  });

  it('merges files into the configured servers and rejects duplicate aliases', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-import-'));
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ mcpServers: { fromfile: { command: 'node' } } }));
    writeFileSync(path.join(dir, 'b.json'), JSON.stringify({ mcpServers: { mine: { command: 'node' } } }));
    const merged = await importMcpConfigs(['a.json'], { mine: { url: 'http://127.0.0.1:1/mcp' } }, { cwd: dir });
    expect(Object.keys(merged)).toEqual(['mine', 'fromfile']);
    await expect(importMcpConfigs(['b.json'], { mine: { url: 'http://127.0.0.1:1/mcp' } }, { cwd: dir, configLabel: 'config.ts' })).rejects.toThrow(
      'b.json: server "mine" is already defined in config.ts (aliases must be unique)',
    );
    await expect(importMcpConfigs(['missing.json'], {}, { cwd: dir })).rejects.toThrow('--mcp-config missing.json: file not found');
  });
});
