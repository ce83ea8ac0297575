import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args';
import { runMcpCommand } from '../../../src/cli/mcp-command';
import { loadConfig } from '../../../src/services/config/load';
import { startLmcpServer, type LmcpServer } from '../../helpers/lmcp-server';
import { EVERYTHING, ROOT } from '../../helpers/mcp';

// `aish-tui mcp list|tools|tool|call`, in-process with a real config file, and once through the
// built binary with --mcp-config.

let lmcp: LmcpServer;
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  lmcp = await startLmcpServer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-cli-'));
  env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), XDG_CONFIG_HOME: path.join(dir, 'config') };
  writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] }, fleet: { url: lmcp.url } } } }),
  );
});

afterAll(async () => {
  await lmcp.close();
});

async function run(...argv: string[]) {
  const args = parseCliArgs(['--config', path.join(dir, 'config.json'), ...argv]);
  const config = await loadConfig({ cli: { configPath: args.config }, env });
  let stdout = '';
  let stderr = '';
  const code = await runMcpCommand(config, args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}

describe('aish-tui mcp', () => {
  it('lists every server with its state', async () => {
    const { code, stdout, stderr } = await run('mcp', 'list');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^builtin\s+ready\s+built-in\s+\(3 tools, in-memory/);
    expect(lines[1]).toMatch(/^everything\s+ready\s+.*\(\d+ tools, stdio/);
    expect(lines[2]).toMatch(/^fleet\s+ready\s+http:\/\/127\.0\.0\.1:\d+\/mcp\s+\(3 tools, streamable-http, lmcp 0\.5\.4, protocol 2025-03-26/);
    // lmcp's older protocol version is one the client speaks: nothing to warn about.
    expect(stderr).not.toContain('protocol');
  });

  it('lists a server the config disables, without connecting it', async () => {
    const file = path.join(dir, 'with-disabled.json');
    writeFileSync(file, JSON.stringify({ builtin: false, mcp: { servers: { fleet: { url: lmcp.url }, off: { command: 'aish-no-such-command-xyz', disabled: true } } } }));
    const args = parseCliArgs(['--config', file, 'mcp', 'list']);
    const config = await loadConfig({ cli: { configPath: args.config }, env });
    let stdout = '';
    const code = await runMcpCommand(config, args, { stdout: (text) => (stdout += text), stderr: () => {}, env });
    // A disabled server is not a failure: the exit code is about the servers that were connected.
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^off\s+disconnected\s+aish-no-such-command-xyz\s+\(disabled in the config\)$/);
    let json = '';
    await runMcpCommand(config, { ...args, json: true }, { stdout: (text) => (json += text), stderr: () => {}, env });
    expect((JSON.parse(json) as Array<{ alias: string; disabled?: boolean }>).map((server) => [server.alias, server.disabled ?? false])).toEqual([['fleet', false], ['off', true]]);
  });

  it('lists every tool as JSON', async () => {
    const { code, stdout } = await run('mcp', 'tools', '--json');
    expect(code).toBe(0);
    const parsed = JSON.parse(stdout) as { tools: Array<{ name: string; wireName: string; server: string; tool: string; inputSchema: unknown }>; failed: string[] };
    const names = parsed.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['builtin__calculator', 'everything__echo', 'fleet__read_file']));
    expect(parsed.tools.find((tool) => tool.name === 'fleet__echo')).toMatchObject({ wireName: 'fleet__echo', server: 'fleet', tool: 'echo' });
    expect(parsed.failed).toEqual([]);
  });

  it('shows one tool with its full input schema', async () => {
    const { code, stdout } = await run('mcp', 'tool', 'fleet__read_file');
    expect(code).toBe(0);
    expect(stdout).toContain('fleet__read_file  (server fleet, tool read_file)');
    expect(stdout).toContain('"required": [');
    const missing = await run('mcp', 'tool', 'fleet__nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('server fleet has no tool "nope"');
  });

  it('calls a tool with JSON arguments', async () => {
    const calc = await run('mcp', 'call', 'builtin__calculator', '{"expression": "6 * 7"}');
    expect(calc).toMatchObject({ code: 0, stdout: '42\n' });
    const json = await run('mcp', 'call', 'fleet__nope', '{}', '--json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ kind: 'rpc-error', content: '[aish] tool dispatch failed: Tool not found', isError: true });
    await expect(run('mcp', 'call', 'builtin__calculator', '{oops')).rejects.toThrow(/not valid JSON/);
    await expect(run('mcp', 'frobnicate')).rejects.toThrow(/expected one of list, tools, tool, call/);
  });

  it('imports servers with --mcp-config through the built binary', async () => {
    const file = path.join(dir, 'claude_desktop_config.json');
    writeFileSync(file, JSON.stringify({ mcpServers: { imported: { type: 'http', url: lmcp.url } } }));
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), '--mcp-config', file, 'mcp', 'tools', '--json'], {
      env: { ...env, AISH_CONFIG: '' },
      cwd: dir,
    });
    const parsed = JSON.parse(stdout) as { tools: Array<{ name: string }> };
    expect(parsed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['imported__echo', 'builtin__roll_dice']));
  });
});
