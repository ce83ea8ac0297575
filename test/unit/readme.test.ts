import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../../src/app/commands';
import { KEYMAP } from '../../src/app/keymap';

// The README is the user's manual: every key and meta command the app knows must be in it.
const readme = readFileSync(path.resolve(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

describe('README stays current', () => {
  it('lists every key binding with its description', () => {
    for (const binding of KEYMAP) {
      expect(readme, binding.keys).toContain(`| ${binding.keys} | ${binding.does} |`);
    }
  });

  it('lists every meta command', () => {
    for (const { command } of COMMAND_HELP) {
      expect(readme, command).toContain(`\`${command}`);
    }
  });
});
