import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args';
import { runMcpCommand } from '../../../src/cli/mcp-command';
import { loadConfig } from '../../../src/services/config/load';
import { estimateTokens } from '../../../src/services/context/estimate';
import { createFileSwitchStore, createToolSwitches, switchesFile } from '../../../src/services/tools/switches';
import { EVERYTHING } from '../../helpers/mcp';

// README.md, "Tool budget": `aish-tui mcp tools` shows each tool's cost and whether it is on
// (config globs, and the switches the user made in this directory), per server and in total.

describe('aish-tui mcp tools: costs and switches', () => {
  it('--json gives tokens, enabled and switchedBy per tool, costs per server and the request\'s budget; text shows the same', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-tool-costs-'));
    const env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), XDG_CONFIG_HOME: path.join(dir, 'config') };
    const file = path.join(dir, 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        models: { m: { baseUrl: 'http://127.0.0.1:9/v1', model: 'm', contextWindow: 8000 } },
        defaultModel: 'm',
        mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], disabledTools: ['get-*'] } } },
      }),
    );
    const project = path.join(dir, 'project');
    const run = async (...argv: string[]) => {
      const args = parseCliArgs(['--config', file, ...argv]);
      const config = await loadConfig({ cli: { configPath: args.config }, env });
      let stdout = '';
      await runMcpCommand(config, args, { stdout: (text) => (stdout += text), stderr: () => {}, env, cwd: project });
      return { stdout, config };
    };
    const { config } = await run('mcp', 'list');
    createToolSwitches(() => config.mcp.servers, createFileSwitchStore(switchesFile(config.paths.stateDir), project)).setTool('everything', 'echo', false);

    const { stdout } = await run('mcp', 'tools', '--json');
    type Tool = { name: string; tokens: number | null; enabled: boolean; switchedBy: string | null; inputSchema: unknown; description: string };
    const parsed = JSON.parse(stdout) as { tools: Tool[]; costs: Array<{ server: string; tokens: number; toolsOn: number; toolsOff: number }>; toolBudget: { searching: boolean; budgetTokens: number } };
    const byName = new Map(parsed.tools.map((tool) => [tool.name, tool]));
    expect(byName.get('everything__echo')).toMatchObject({ enabled: false, switchedBy: 'user' });
    expect(byName.get('everything__get-sum')).toMatchObject({ enabled: false, switchedBy: 'config' });
    const calculator = byName.get('builtin__calculator')!;
    expect(calculator).toMatchObject({ enabled: true, switchedBy: null });
    const sent = { type: 'function', function: { name: 'builtin__calculator', description: calculator.description, parameters: calculator.inputSchema } };
    expect(calculator.tokens).toBe(estimateTokens(JSON.stringify(sent)));
    const everything = parsed.costs.find((cost) => cost.server === 'everything')!;
    const onTools = parsed.tools.filter((tool) => tool.name.startsWith('everything__') && tool.enabled && tool.tokens !== null);
    expect(everything.tokens).toBe(onTools.reduce((sum, tool) => sum + tool.tokens!, 0));
    expect(everything.toolsOff).toBeGreaterThanOrEqual(2);
    expect(parsed.toolBudget.budgetTokens).toBe(800);

    const text = await run('mcp', 'tools');
    expect(text.stdout).toMatch(/everything__echo\s+\d+ tok {2}off \(you\)/);
    expect(text.stdout).toMatch(/everything__get-sum\s+\d+ tok {2}off \(config\)/);
    expect(text.stdout).toMatch(/builtin: 3 of 3 tools on, \d+ tokens/);
    expect(text.stdout).toContain('budget 800 of a 8.0k window');
    expect(text.stdout).toContain('1 switch made here is remembered for this directory');
  }, 30_000);
});
