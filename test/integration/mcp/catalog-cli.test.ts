import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { runAish } from '../headless/run-headless';

// `aish-tui mcp resources|read|prompts` through the built binary against server-everything (stdio).

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const config = { builtin: false, mcp: { servers: { everything } } };
const DOC = 'demo://resource/static/document/architecture.md';
const mcp = (...args: string[]) => runAish(['mcp', ...args], { config });

describe('aish-tui mcp resources / read / prompts', () => {
  it('resources: lists resources and templates with their parameters; --json has both', async () => {
    const text = await mcp('resources', 'everything');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`everything:${DOC}  architecture.md  (text/markdown)`);
    expect(text.stdout).toContain('everything:demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource  (template: resourceId)');
    const json = await mcp('resources', 'everything', '--json');
    const parsed = JSON.parse(json.stdout);
    expect(parsed.resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: DOC })]));
    expect(parsed.templates).toEqual(expect.arrayContaining([expect.objectContaining({ uriTemplate: 'demo://resource/dynamic/text/{resourceId}', variables: ['resourceId'] })]));
  });

  it('read: prints the text; a failed read is an error with exit 1', async () => {
    const ok = await mcp('read', 'everything', DOC);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('Architecture');
    const json = JSON.parse((await mcp('read', 'everything', DOC, '--json')).stdout);
    expect(json).toMatchObject({ ok: true, uri: DOC, parts: [expect.objectContaining({ kind: 'text' })] });
    const missing = await mcp('read', 'everything', 'demo://nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('everything:demo://nope could not be read');
  });

  it('prompts: lists prompts with their arguments (optional ones bracketed); an unknown alias is a usage error', async () => {
    const text = await mcp('prompts', 'everything');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('everything/args-prompt city [state]  A prompt with two arguments');
    const json = JSON.parse((await mcp('prompts', 'everything', '--json')).stdout);
    expect(json.prompts).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'args-prompt' })]));
    const unknown = await mcp('prompts', 'nosuch');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no server named "nosuch"');
  });
});
