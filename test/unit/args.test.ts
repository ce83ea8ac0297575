import { describe, expect, it } from 'vitest';
import { parseCliArgs, USAGE } from '../../src/cli/args';
import { ConfigError } from '../../src/services/config/errors';

describe('command-line parsing', () => {
  it('reads every flag', () => {
    const args = parseCliArgs([
      '--config', 'c.ts', '-m', 'local', '--base-url', 'http://h/v1', '--api-key-env', 'K', '--mcp-config', 'a.json', '--mcp-config', 'b.json',
      '-p', 'hi', '--output-format', 'stream-json', '--auto-approve', 'builtin__*', '--allow-cmd', '--allow-sampling', '--max-tool-depth', '3', '--json', '--no-sidebar',
    ]);
    expect(args).toMatchObject({
      config: 'c.ts', model: 'local', baseUrl: 'http://h/v1', apiKeyEnv: 'K', mcpConfig: ['a.json', 'b.json'], print: 'hi',
      outputFormat: 'stream-json', autoApprove: ['builtin__*'], allowCmd: true, allowSampling: true, maxToolDepth: 3, json: true, noSidebar: true,
    });
    expect(parseCliArgs(['mcp', 'tool', 'builtin__calculator']).command).toEqual(['mcp', 'tool', 'builtin__calculator']);
    expect(parseCliArgs(['-c']).continueLast).toBe(true);
    expect(parseCliArgs(['--resume', 'abc']).resume).toBe('abc');
  });

  it('turns bad input into a usage error (exit 2) that names the flag', () => {
    const bad: Array<[string[], RegExp]> = [
      [['--frobnicate'], /Unknown option '--frobnicate'/],
      [['--output-format', 'xml'], /--output-format: expected text, json or stream-json, got "xml"/],
      [['--max-tool-depth', '-1'], /^--max-tool-depth: the value "-1" looks like an option; write --max-tool-depth=-1 if it is the value$/],
      [['--max-tool-depth=-1'], /^--max-tool-depth: expected a whole number >= 0, got "-1"$/],
      [['-p', '-v'], /^-p: the value "-v" looks like an option; write --print=-v if it is the value$/],
      [['--max-tool-depth', '1.5'], /--max-tool-depth: expected a whole number >= 0, got "1.5"/],
      [['--max-tool-depth', 'lots'], /--max-tool-depth/],
      [['--continue', '--resume', 'x'], /cannot be used together/],
      [['--config'], /--config/],
    ];
    for (const [argv, message] of bad) {
      let error: unknown;
      try {
        parseCliArgs(argv);
      } catch (caught) {
        error = caught;
      }
      expect(error, argv.join(' ')).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).exitCode).toBe(2);
      expect((error as ConfigError).lines[0]).toMatch(message);
    }
  });

  it('documents every flag in --help', () => {
    for (const flag of ['--help', '--version', '--config', '--model', '--base-url', '--api-key-env', '--mcp-config', '--continue', '--resume', '--print', '--output-format', '--auto-approve', '--allow-cmd', '--allow-sampling', '--max-tool-depth', '--json', '--no-sidebar', 'mcp list', 'mcp tools', 'mcp tool', 'mcp call']) {
      expect(USAGE, flag).toContain(flag);
    }
  });
});
