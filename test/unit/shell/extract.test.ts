import { describe, expect, it } from 'vitest';
import { extractCommands } from '../../../src/services/shell/extract';

describe('CMD: extraction', () => {
  it('takes lines that start with "CMD: " in order', () => {
    expect(extractCommands('To see them:\nCMD: ls -la\nthen\nCMD: du -sh .\n')).toEqual(['ls -la', 'du -sh .']);
  });

  it('ignores CMD: lines inside fenced code blocks (``` and ~~~, longer fences)', () => {
    const answer = ['Example script:', '```sh', 'CMD: rm -rf /', '```', '~~~', 'CMD: reboot', '~~~', '````md', '```', 'CMD: nested', '```', '````', 'CMD: echo real'].join('\n');
    expect(extractCommands(answer)).toEqual(['echo real']);
  });

  it('an unclosed fence hides everything after it', () => {
    expect(extractCommands('CMD: one\n```\nCMD: two\n')).toEqual(['one']);
  });

  it('requires "CMD: " at the start of the line (up to three spaces), not in running text', () => {
    expect(extractCommands('Use CMD: ls to list\n   CMD: pwd\n    CMD: indented-code\ncmd: lower\nCMD:nospace')).toEqual(['pwd']);
  });

  it('unwraps a command given whole in backticks, drops empty ones and immediate repeats', () => {
    expect(extractCommands('CMD: `git status`\nCMD:   \nCMD: date\nCMD: date\r\n')).toEqual(['git status', 'date']);
  });

  it('keeps the command text exactly otherwise (quotes, pipes, backticks inside)', () => {
    expect(extractCommands('CMD: grep -c "a b" file | wc -l && echo `date`')).toEqual(['grep -c "a b" file | wc -l && echo `date`']);
  });
});
