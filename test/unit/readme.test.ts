import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../../src/runtime/commands';
import { KEY_CONTEXTS, KEYMAP } from '../../src/ui/keys/keymap';
import { FINISH_EXIT_CODES, OTHER_FINISH_EXIT_CODE } from '../../src/cli/headless-output';

// The README is the user's manual: every key and meta command the app knows must be in it.
const readme = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README stays current', () => {
  it('lists every key binding with its description', () => {
    for (const binding of KEYMAP) {
      expect(readme, binding.keys).toContain(`| ${binding.keys} | ${binding.does} |`);
    }
  });

  it('the Keys section is the key table: the same groups in the same order, no key missing, none extra', () => {
    const section = readme.slice(readme.indexOf('## Keys'), readme.indexOf('\n## ', readme.indexOf('## Keys') + 1));
    const groups = section
      .split(/^\*\*.+\*\*$/m)
      .slice(1)
      .map((block) =>
        block
          .split('\n')
          .filter((line) => line.startsWith('| ') && line !== '| key | what it does |'),
      );
    const expected = KEY_CONTEXTS.map(({ context }) => KEYMAP.filter((binding) => binding.where === context).map((binding) => `| ${binding.keys} | ${binding.does} |`)).filter((rows) => rows.length > 0);
    expect(groups).toEqual(expected);
  });

  it('lists every meta command', () => {
    for (const { command } of COMMAND_HELP) {
      expect(readme, command).toContain(`\`${command}`);
    }
  });

  it('headless mode: the finish_reason table is exactly what the code reports and exits with', () => {
    const header = '| `finish_reason` | exit code |';
    const lines = readme.slice(readme.indexOf(header)).split('\n').slice(2);
    const rows = lines.slice(0, lines.findIndex((line) => !line.startsWith('|')));
    const table = Object.fromEntries(rows.map((row) => {
      const match = /^\| `(\w+)` \| (\d+) \|/.exec(row);
      expect(match, row).not.toBeNull();
      return [match![1], Number(match![2])];
    }));
    expect(table).toEqual(FINISH_EXIT_CODES);
    expect(readme).toContain(`A finish reason the server made up is passed on as it is, with exit code \`${OTHER_FINISH_EXIT_CODE}\``);
  });
});
