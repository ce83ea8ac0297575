import { describe, expect, it } from 'vitest';
import { isExpandable } from '../../../src/transcript/items';
import { clipHead, exceedsHead } from '../../../src/transcript/preview';
import { assistant, command, plainTheme, renderView, rowsOf, status, tool, user } from './helpers';

function rows(frame: string | undefined): string[] {
  const all = rowsOf(frame).map((row) => row.trimEnd());
  while (all.length > 0 && all[0] === '') all.shift();
  return all;
}

describe('transcript items', () => {
  it('shows user messages behind a prompt glyph, wrapped with a hanging indent', () => {
    const view = renderView([user('first line of a question that is long\nsecond line')], { width: 24 });
    expect(rows(view.lastFrame())).toEqual(['› first line of a', '  question that is long', '  second line']);
  });

  it('separates items with a blank row', () => {
    const view = renderView([user('hi'), assistant('hello')]);
    expect(rows(view.lastFrame())).toEqual(['› hi', '', 'hello']);
  });

  it('marks status lines by level with distinct glyphs and colours', () => {
    const view = renderView([status('info', 'connected'), status('warn', 'slow server'), status('error', 'HTTP 500')]);
    const text = rows(view.lastFrame());
    expect(text).toContain('∙ connected');
    expect(text).toContain('! slow server');
    expect(text).toContain('✗ HTTP 500');
    const raw = view.lastFrame() ?? '';
    expect(raw).toMatch(/\x1b\[31m✗/);
    expect(raw).toMatch(/\x1b\[33m!/);
  });

  it('states why an answer ended early', () => {
    const view = renderView([assistant('Partial', { endNote: 'incomplete' }), assistant('Cut', { endNote: 'length' })]);
    const text = view.text();
    expect(text).toContain('! answer incomplete (connection closed)');
    expect(text).toContain('! answer cut off (length limit reached)');
  });

  it('shows reasoning dimmed above the answer, or one collapsed line', () => {
    const item = assistant('The answer.', { reasoning: 'first thought\nsecond thought\nthird thought' });
    const open = renderView([item]);
    expect(rows(open.lastFrame())).toEqual(['▾ reasoning', '  first thought', '  second thought', '  third thought', '', 'The answer.']);
    expect(open.lastFrame()).toMatch(/\x1b\[3m(\x1b\[[0-9;]*m)*first thought/);
    const closed = renderView([item], { reasoningCollapsed: true });
    expect(rows(closed.lastFrame())).toEqual(['▸ reasoning (3 lines)', '', 'The answer.']);
  });

  it('toggles reasoning collapse on an already laid out item', () => {
    const item = assistant('A.', { reasoning: 'why' });
    const view = renderView([item]);
    expect(view.text()).toContain('▾ reasoning');
    view.update({ reasoningCollapsed: true });
    expect(view.text()).toContain('▸ reasoning (1 line)');
    expect(view.text()).not.toContain('why');
  });

  it('does not draw pending tool calls or proposed commands (their frames do)', () => {
    const view = renderView([user('go'), tool({ state: 'pending', name: 'fs__secret_tool' }), command({ state: 'proposed', command: 'rm -rf /tmp/x' })]);
    expect(view.text()).not.toContain('secret_tool');
    expect(view.text()).not.toContain('rm -rf');
  });

  it('shows a running tool with a spinner, elapsed time and a progress bar', () => {
    const view = renderView([tool({ state: 'running', startedAt: 7_000, progress: { progress: 3, total: 4, message: 'copying' } })], { now: 10_200 });
    const text = rows(view.lastFrame());
    expect(text[0]).toMatch(/^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] builtin__calculator \{"expression":"2\+2"\} 3\.2s$/);
    expect(text[1]).toMatch(/^ {2}█+░+ 75% copying$/);
  });

  it('advances elapsed time with the clock', () => {
    const item = tool({ state: 'running', startedAt: 0 });
    const view = renderView([item], { now: 250 });
    expect(view.text()).toContain('250ms');
    view.update({ now: 1_000 });
    expect(view.text()).toContain('1.0s');
    view.update({ now: 2_500 });
    expect(view.text()).toContain('2.5s');
  });

  it('shows a progress count when the total is unknown', () => {
    const view = renderView([tool({ state: 'running', startedAt: 0, progress: { progress: 12 } })]);
    expect(view.text()).toContain('progress 12');
  });

  it('previews the first rows of a result and all of it when expanded', () => {
    const result = Array.from({ length: 12 }, (_, index) => `row ${index + 1}`).join('\n');
    const item = tool({ state: 'done', startedAt: 0, endedAt: 400, result });
    const view = renderView([item]);
    const text = rows(view.lastFrame());
    expect(text[0]).toBe('✓ builtin__calculator {"expression":"2+2"} 400ms');
    expect(text).toContain('  │ row 5');
    expect(text).not.toContain('  │ row 6');
    expect(text).toContain('  … 7 more lines');
    view.update({ expandedIds: new Set([item.id]) });
    const expanded = rows(view.lastFrame());
    expect(expanded).toContain('  │ row 12');
    expect(expanded).toContain('  arguments');
    expect(expanded).toContain('  │   "expression": "2+2"');
    expect(expanded.join('\n')).not.toContain('more lines');
  });

  it('shows a failed call in the error colour with its message', () => {
    const view = renderView([tool({ state: 'error', startedAt: 0, endedAt: 2_000, result: 'connection refused' })]);
    expect(rows(view.lastFrame())).toEqual(['✗ builtin__calculator {"expression":"2+2"} failed 2.0s', '  │ connection refused']);
    expect(view.lastFrame()).toMatch(/\x1b\[31mconnection refused/);
  });

  it('shows denied calls with the reason, cancelled and skipped ones with theirs', () => {
    const view = renderView([
      tool({ state: 'denied', name: 'fs__write', decision: { action: 'deny', by: 'user', reason: 'not that file' } }),
      tool({ state: 'denied', name: 'fs__delete', decision: { action: 'deny', by: 'rule', rule: 'config mcp.deny fs__delete' } }),
      tool({ state: 'cancelled', name: 'web__fetch', result: 'cancelled by the user' }),
      tool({ state: 'skipped', name: 'x__y', decision: { action: 'skip', reason: 'arguments are not valid JSON' } }),
    ]);
    const text = rows(view.lastFrame());
    expect(text).toContain('⊘ fs__write {"expression":"2+2"} denied');
    expect(text).toContain('  denied by you: not that file');
    expect(text).toContain('  denied by config mcp.deny fs__delete');
    expect(text).toContain('◌ web__fetch {"expression":"2+2"} cancelled');
    expect(text).toContain('↷ x__y {"expression":"2+2"} skipped');
    expect(text).toContain('  skipped: arguments are not valid JSON');
  });

  it('says which rule approved an automatic call', () => {
    const view = renderView([tool({ state: 'done', decision: { action: 'allow', by: 'rule', rule: 'config mcp.autoApprove builtin__*' }, result: '4' })]);
    expect(view.text()).toContain('auto-approved by config mcp.autoApprove builtin__*');
  });

  it('keeps the header on one row, cutting arguments before the state', () => {
    const view = renderView([tool({ state: 'denied', args: { text: 'x'.repeat(200) } })], { width: 50 });
    const first = rows(view.lastFrame())[0]!;
    expect(first.endsWith('… denied')).toBe(true);
    expect([...first].length).toBeLessThanOrEqual(50);
  });

  it('shows commands after confirmation with their output and exit code', () => {
    const view = renderView([
      command({ command: 'ls /tmp', output: 'a\nb\n', exitCode: 0 }),
      command({ command: 'false', output: '', exitCode: 1 }),
      command({ command: 'sleep 99', output: '', exitCode: null, timedOut: true }),
      command({ command: 'rm x', state: 'skipped' }),
    ]);
    const text = rows(view.lastFrame());
    expect(text).toContain('✓ $ ls /tmp exit 0');
    expect(text).toContain('  │ a');
    expect(text).toContain('  │ b');
    expect(text).toContain('✗ $ false exit 1');
    expect(text).toContain('✗ $ sleep 99 timed out');
    expect(text).toContain('↷ $ rm x skipped');
  });

  it('streams command output showing the last rows while running', () => {
    const output = Array.from({ length: 30 }, (_, index) => `out ${index + 1}`).join('\n');
    const view = renderView([command({ state: 'running', output, exitCode: undefined })], { now: 0 });
    const text = rows(view.lastFrame());
    expect(text[0]).toMatch(/^⠋ \$ ls -la running$/);
    expect(text).toContain('  … 22 earlier lines');
    expect(text).toContain('  │ out 30');
    expect(text).not.toContain('  │ out 22');
  });

  it('bounds a huge result: only the preview is laid out', () => {
    const huge = 'line\n'.repeat(2_000_000);
    const view = renderView([tool({ state: 'done', result: huge })]);
    const text = rows(view.lastFrame());
    expect(text.filter((row) => row === '  │ line')).toHaveLength(5);
    // Counting what is hidden stops after a few MB.
    expect(text[text.length - 1]).toMatch(/^ {2}… at least \d+ more lines$/);
  });

  it('reads well without colour', () => {
    const view = renderView([status('error', 'broken'), tool({ state: 'done', result: 'ok' })], { theme: plainTheme });
    const raw = view.lastFrame() ?? '';
    expect(raw).not.toMatch(/\x1b\[(3[0-9]|9[0-7])m/);
    expect(view.text()).toContain('✗ broken');
    expect(view.text()).toContain('✓ builtin__calculator');
  });

  it('folds a long user message after 400 lines, says how to see the rest, and shows it all expanded', () => {
    const text = Array.from({ length: 403 }, (_, index) => `line ${index + 1}`).join('\n');
    const item = user(text, 'u-403');
    const folded = rows(renderView([item], { height: 500 }).lastFrame());
    expect(folded).toContain('  line 400');
    expect(folded).not.toContain('  line 401');
    expect(folded[folded.length - 1]).toBe('  … 3 more lines · x in the chat shows them');
    const open = rows(renderView([item], { height: 500, expandedIds: new Set(['u-403']) }).lastFrame());
    expect(open[open.length - 1]).toBe('  line 403');
    expect(open.join('\n')).not.toContain('more lines');
  });

  it('x expands tool calls, commands and only the messages that are folded', () => {
    const lines = (count: number) => Array.from({ length: count }, (_, index) => `l${index}`).join('\n');
    expect(isExpandable(user(lines(400)))).toBe(false);
    expect(isExpandable(user(`${lines(400)}\n`))).toBe(false);
    expect(isExpandable(user(lines(401)))).toBe(true);
    expect(isExpandable(user('x'.repeat(300 * 1024)))).toBe(true);
    expect(isExpandable(status('info', lines(20)))).toBe(false);
    expect(isExpandable(status('info', lines(21)))).toBe(true);
    expect(isExpandable(tool({ state: 'done', result: 'ok' }))).toBe(true);
    expect(isExpandable(command({ state: 'done', output: 'ok', exitCode: 0 }))).toBe(true);
    expect(isExpandable(assistant(lines(900)))).toBe(false);
    for (const sample of ['', 'a', 'a\n', 'a\nb', 'a\nb\n', 'a\n\n', '\n\n\n', 'abcdef']) {
      for (const maxLines of [1, 2, 3]) {
        for (const maxChars of [2, 4, 100]) {
          expect(exceedsHead(sample, maxLines, maxChars), JSON.stringify([sample, maxLines, maxChars])).toBe(clipHead(sample, maxLines, maxChars).omittedLines > 0);
        }
      }
    }
  });
});
