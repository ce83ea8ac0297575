import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { CLI, makeScratchHome, testEnv } from '../helpers/terminal';

function run(args: string[], input?: string) {
  const home = makeScratchHome('aish-cli-');
  return spawnSync(process.execPath, [CLI, ...args], { env: testEnv(home), encoding: 'utf8', input, timeout: 20_000 });
}

describe('the aish-tui command', () => {
  it('--version prints the package version', () => {
    const result = run(['--version']);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(`aish-tui ${pkg.version}`);
  });

  it('--help lists flags and subcommands', () => {
    const result = run(['--help']);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Usage: aish-tui');
    expect(result.stdout).toContain('--output-format');
    expect(result.stdout).toContain('mcp tools');
  });

  it('an unknown flag is a usage error with exit code 2 and no stack trace', () => {
    const result = run(['--frobnicate']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe("aish-tui: Unknown option '--frobnicate'\naish-tui: Run 'aish-tui --help' for usage.\n");
  });

  it('an unknown subcommand is a usage error', () => {
    const result = run(['frob']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('unknown command "frob"');
  });

  it('refuses to start the full-screen UI without a terminal', () => {
    const result = run([]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('needs a terminal');
  });
});
