import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, makeScratchHome, testEnv } from '../helpers/terminal';

// A config file with a syntax error: the built binary (native ES module import, the TypeScript
// loader only for .ts) says which file, which line and column, and what is wrong, with exit 2.

const home = makeScratchHome('aish-config-errors-');
afterAll(() => rmSync(home, { recursive: true, force: true }));

function run(name: string, content: string): { status: number | null; stderr: string } {
  const file = path.join(home, name);
  writeFileSync(file, content);
  const result = spawnSync(process.execPath, [CLI, '--config', file, '-p', 'hi'], { env: testEnv(home), encoding: 'utf8', timeout: 20_000 });
  return { status: result.status, stderr: result.stderr };
}

describe('a config file that does not parse', () => {
  it.each([
    ['broken.ts', "export default {\n  models: {\n    a: { baseUrl: 'http://x/v1', model: 'm' }\n};\n", 'line 4, column 2: Expected "}" but found ";"'],
    ['broken.js', 'export default {\n  models: { a: 1,\n}\n', 'line 4, column 1: Expected "}" but found end of file'],
    ['broken.json', '{\n  "models": {\n    "a": 1,\n  }\n}', 'not valid JSON: line 4, column 3: '],
  ])('%s: one line with the place and the problem, exit 2', (name, content, expected) => {
    const { status, stderr } = run(name, content);
    expect(status).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${name}: `);
    expect(lines[0]).toContain(expected);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a .js file that throws a SyntaxError while it runs is reported and run once, not read again', () => {
    const marker = path.join(home, 'ran.log');
    const { status, stderr } = run(
      'throws.js',
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(marker)}, 'ran\\n');\nexport default JSON.parse('{bad');\n`,
    );
    expect(status).toBe(2);
    expect(stderr.trim()).toMatch(/throws\.js: cannot load: .*JSON/);
    expect(readFileSync(marker, 'utf8')).toBe('ran\n');
  });

  it('what a config file quotes back is escaped: no bidi override or C1 control reaches the terminal', () => {
    const { status, stderr } = run('hostile.json', JSON.stringify({ mcp: { 'x\u202ey': 1, 'z\u009b2J': 2 } }));
    expect(status).toBe(2);
    expect(stderr).toContain('unknown keys "x<U+202E>y", "z\\x9b2J"');
    expect(stderr).not.toMatch(/[\u202e\u009b]/);
  });
});
