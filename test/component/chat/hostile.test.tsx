import { describe, expect, it } from 'vitest';
import type { ChatItem } from '../../../src/state/types';
import { assistant, colourTheme, command, foreignEscapes, plainTheme, RAW_CONTROL, renderView, status, stripSgr, tool, user } from './helpers';

/** Strings a model or a server could send to take over the terminal or hide what it says. */
const HOSTILE = [
  '\x1b[2J\x1b[Hcleared',
  '\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07clipboard',
  '\x1b]0;window title\x1b\\title',
  '\x1b]8;;https://evil.example\x07click\x1b]8;;\x07',
  '\x9b31mC1 CSI\x9b0m',
  '\x90DCS payload\x9c',
  '\x9d0;osc8bit\x9c',
  'safe text\roverwritten',
  'ls \u202Etxt.exe',
  '\u2066isolated\u2069 \u200Emark',
  'bell\x07 nul\x00 del\x7f',
  'lone \ud800 surrogate',
  'entity &#27;[31m &#x9b;2J &#155; &#27;]52;c;ZW50aXR5&#7;',
  '\x1b[31mred\x1b[0m',
  '\x1bPq#0;2;0;0;0#1;2;100;100;0\x1b\\sixel',
].join(' | ');

function everyKind(text: string): ChatItem[] {
  const args = { path: text, nested: { value: text } };
  return [
    user(text),
    assistant(`# ${text}\n\n${text}\n\n- ${text}\n\n\`${text}\`\n\n\`\`\`js\n${text}\n\`\`\`\n\n| a |\n|---|\n| ${text} |\n\n[${text}](${text.replace(/\s/g, '')})`, { reasoning: text, endNote: text }),
    status('error', text),
    tool({ name: text, args, state: 'done', result: text, decision: { action: 'allow', by: 'rule', rule: text } }),
    tool({ name: text, args, state: 'running', startedAt: 0, progress: { progress: 1, total: 2, message: text } }),
    tool({ name: text, args, state: 'denied', decision: { action: 'deny', by: 'user', reason: text } }),
    tool({ name: text, args, state: 'skipped', decision: { action: 'skip', reason: text } }),
    command({ command: `echo ${text}\n${text}`, output: text, exitCode: 1 }),
  ];
}

function expectClean(frame: string | undefined) {
  const raw = frame ?? '';
  expect(foreignEscapes(raw)).toEqual([]);
  expect(stripSgr(raw)).not.toMatch(RAW_CONTROL);
  expect(raw).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
}

describe('hostile text never reaches the terminal raw', () => {
  for (const theme of [colourTheme, plainTheme]) {
    it(`in every kind of item, shown escaped (${theme.color ? 'colour' : 'NO_COLOR'})`, () => {
      const items = everyKind(HOSTILE);
      const view = renderView(items, { theme, height: 400, width: 100 });
      expectClean(view.lastFrame());
      const text = view.text();
      expect(text).toContain('\\x1b[2J');
      expect(text).toContain('\\x1b]52;c;');
      expect(text).toContain('\\x9b31m');
      expect(text).toContain('\\r');
      expect(text).toContain('<U+202E>');
      expect(text).toContain('\\x07');
      expect(text).toContain('entity \\x1b[31m');
    });
  }

  it('in expanded items too', () => {
    const items = everyKind(HOSTILE);
    const view = renderView(items, { height: 400, width: 100, expandedIds: new Set(items.map((item) => item.id)) });
    expectClean(view.lastFrame());
  });

  it('while streaming one character at a time', () => {
    let item = assistant('', { streaming: true, reasoning: '' });
    const view = renderView([item], { height: 30 });
    const hostile = '\x1b[2J \x1b]52;c;ZXZpbA==\x07 \x9b31m x\ry \u202Etxt &#27;]52;c;eA==&#7; \ud800';
    const text = `Intro ${hostile}\n\n\`\`\`sh\n${hostile}\n\`\`\`\n`;
    for (let index = 0; index < text.length; index++) {
      item = { ...item, text: text.slice(0, index + 1), reasoning: hostile.slice(0, index + 1), version: index + 1 };
      view.update({ items: [item] });
      expectClean(view.lastFrame());
    }
  });

  it('at widths where escapes and markers are cut by wrapping', () => {
    for (const width of [7, 13, 29]) {
      expectClean(renderView(everyKind(HOSTILE), { width, height: 2000 }).lastFrame());
    }
  });
});
