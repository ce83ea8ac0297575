import { describe, expect, it } from 'vitest';
import { formatSavedRule, parseRuleLine, ruleWords, type SavedRule } from '../../../src/services/tools/saved-rules';

// The rule line typed in the approval frame (README.md, "Saved rules"): a glob with a space is
// written in quotes, and a rule is shown the way it would be typed back.
describe('rule lines', () => {
  it('reads a quoted glob with spaces as one value, in double or single quotes', () => {
    expect(parseRuleLine('allow project fs__read_file path="~/My Documents/**"')).toEqual({ scope: 'project', rule: { allow: true, tool: 'fs__read_file', args: { path: '~/My Documents/**' } } });
    expect(parseRuleLine("deny everywhere fs__* path='/mnt/c/Program Files/**' mode=ro")).toEqual({
      scope: 'everywhere',
      rule: { allow: false, tool: 'fs__*', args: { path: '/mnt/c/Program Files/**', mode: 'ro' } },
    });
  });

  it('takes \\" and \\\\ inside double quotes, and keeps a backslash elsewhere as written', () => {
    expect(ruleWords('a "say \\"hi\\" \\\\ x" c\\d')).toEqual(['a', 'say "hi" \\ x', 'c\\d']);
    expect(ruleWords("it's")).toBe('the quote at column 3 is not closed');
  });

  it('refuses an unclosed quote and an empty quoted value instead of guessing', () => {
    expect(parseRuleLine('allow project fs__read_file path="~/My Documents/**')).toBe('the quote at column 34 is not closed');
    expect(parseRuleLine('allow project fs__read_file path=""')).toMatch(/^narrow by argument as name=glob/);
  });

  it('shows a rule the way it is typed, quoting only what needs it, and reads that back the same', () => {
    const rules: SavedRule[] = [
      { allow: true, tool: 'fs__read_file', args: { path: '~/src/**' } },
      { allow: true, tool: 'fs__read_file', args: { path: '~/My Documents/**', note: 'say "hi"\\now' } },
      { allow: false, tool: 'shell__*' },
    ];
    expect(formatSavedRule(rules[0]!)).toBe('fs__read_file path=~/src/**');
    expect(formatSavedRule(rules[1]!)).toBe('fs__read_file path="~/My Documents/**" note="say \\"hi\\"\\\\now"');
    for (const rule of rules) {
      const line = `${rule.allow ? 'allow' : 'deny'} project ${formatSavedRule(rule)}`;
      expect(parseRuleLine(line)).toEqual({ scope: 'project', rule });
    }
  });
});
