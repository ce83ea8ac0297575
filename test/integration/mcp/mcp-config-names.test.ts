import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLmcpServer, type LmcpServer } from '../../helpers/lmcp-server';
import { ROOT } from '../../helpers/mcp';

// `--mcp-config` with the server names Cline and VS Code files use (`github.com/org/memory`,
// `with.dot`): the built binary starts, names each server with a valid alias and says so, and
// skips only the entry that cannot work.

let lmcp: LmcpServer;
let dir: string;

beforeAll(async () => {
  lmcp = await startLmcpServer();
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-names-'));
});

afterAll(async () => {
  await lmcp.close();
});

describe('--mcp-config server names', () => {
  it('derives aliases, reports them, skips the broken entry, and the servers work', async () => {
    const file = path.join(dir, 'cline_mcp_settings.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          'github.com/org/memory': { url: lmcp.url, type: 'streamableHttp' },
          'with.dot': { url: lmcp.url },
          broken: { args: ['no command, no url'] },
        },
      }),
    );
    const env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), XDG_CONFIG_HOME: path.join(dir, 'config'), AISH_CONFIG: '' };
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist', 'cli.js'), '--mcp-config', file, 'mcp', 'tools', '--json'], { env, cwd: dir });
    const names = (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['github_com_org_memory__echo', 'with_dot__echo', 'builtin__roll_dice']));
    const lines = stderr.trim().split('\n');
    expect(lines).toContain(`aish-tui: ${file}: mcpServers.broken: needs "command" (stdio) or "url" (HTTP); this server is skipped`);
    expect(lines.some((line) => line.startsWith(`aish-tui: ${file}: server "github.com/org/memory" is named github_com_org_memory (`))).toBe(true);
    expect(lines.some((line) => line.startsWith(`aish-tui: ${file}: server "with.dot" is named with_dot (`))).toBe(true);
  });
});
