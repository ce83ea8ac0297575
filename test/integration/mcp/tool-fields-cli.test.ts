import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/cli/args';
import { runMcpCommand } from '../../../src/cli/mcp-command';
import { loadConfig } from '../../../src/services/config/load';
import { EVERYTHING } from '../../helpers/mcp';

// `aish-tui mcp tools --json`, `mcp tool` and `mcp call` with tools that declare an outputSchema,
// execution.taskSupport and icons (test/helpers/results-mcp-server.mjs and server-everything).

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'results-mcp-server.mjs');
let dir: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-fields-'));
  env = { ...process.env, XDG_STATE_HOME: path.join(dir, 'state'), XDG_CONFIG_HOME: path.join(dir, 'config') };
  writeFileSync(
    path.join(dir, 'config.json'),
    JSON.stringify({ builtin: false, mcp: { servers: { results: { command: process.execPath, args: [RESULTS] }, everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } } }),
  );
});

async function run(...argv: string[]) {
  const args = parseCliArgs(['--config', path.join(dir, 'config.json'), ...argv]);
  const config = await loadConfig({ cli: { configPath: args.config }, env });
  let stdout = '';
  let stderr = '';
  const code = await runMcpCommand(config, args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  return { code, stdout, stderr };
}

type ToolEntry = { name: string; wireName: string | null; outputSchema: unknown; execution: unknown; icons: unknown };

describe('aish-tui mcp with outputSchema, execution and icons', () => {
  it('tools --json has them; a task-only tool has no wire name', async () => {
    const { code, stdout } = await run('mcp', 'tools', '--json');
    expect(code).toBe(0);
    const tools = (JSON.parse(stdout) as { tools: ToolEntry[] }).tools;
    const research = tools.find((tool) => tool.name === 'results__research')!;
    expect(research).toMatchObject({
      wireName: null,
      outputSchema: { type: 'object', required: ['summary'] },
      execution: { taskSupport: 'required' },
      icons: [{ src: 'https://example.com/research.svg', mimeType: 'image/svg+xml', sizes: ['any'] }, { mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }],
    });
    expect(tools.find((tool) => tool.name === 'everything__get-structured-content')).toMatchObject({ outputSchema: { type: 'object' } });
    // server-everything declares task calls: its task-only tool is offered to the model (tasks.ts).
    expect(tools.find((tool) => tool.name === 'everything__simulate-research-query')).toMatchObject({ wireName: 'everything__simulate-research-query', execution: { taskSupport: 'required' } });
    expect(tools.find((tool) => tool.name === 'results__fail')).toMatchObject({ outputSchema: null, execution: null, icons: null });
  });

  it('tools lists a task-only tool with the reason; tool shows its output schema and icons', async () => {
    const list = await run('mcp', 'tools');
    expect(list.stdout).toMatch(/^results__research +- +on +\(withheld: it runs only as a task \(execution\.taskSupport "required"\) and the server does not declare task calls \(capabilities\.tasks\.requests\.tools\.call\)\)$/m);
    const one = await run('mcp', 'tool', 'results__research');
    expect(one.stdout).toContain('execution: {"taskSupport":"required"}\n');
    expect(one.stdout).toContain('icon: image/png  48x48  dark theme  data:image/png;base64,… (2 KB)\n');
    expect(one.stdout).toContain('output schema:\n{\n  "type": "object",');
  });

  it('call prints placeholders, never base64, and marks an isError result', async () => {
    const media = await run('mcp', 'call', 'results__media', '{}');
    expect(media).toMatchObject({ code: 0, stdout: '{"content":[{"type":"image","data":"[image/png, 75 KB]","mimeType":"image/png"}]}\n[image/png, 75 KB]\n' });
    const fail = await run('mcp', 'call', 'results__fail', '{}');
    expect(fail).toMatchObject({ code: 1, stdout: '[aish] the tool reported an error: Permission denied: /etc/shadow\n' });
  });
});
