import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import stringWidth from 'string-width';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { layoutItem } from '../../../src/transcript/items';
import { chatStyles } from '../../../src/transcript/style';
import type { ChatItem } from '../../../src/state/types';
import { assistant, colourTheme, status, stripSgr, tool } from './helpers';

/**
 * A character that can be drawn as an emoji (✔ ⚠ ℹ ☑ ▪ …) is one column in some terminals and two
 * in others, and string-width counts it as two: rows holding one come out misaligned. Every
 * glyph the panels draw must be one column everywhere.
 */

const SRC = path.resolve(import.meta.dirname, '..', '..', '..', 'src');
// Everything that draws: the panels and the transcript engine.
const DRAWING = [path.join(SRC, 'ui'), path.join(SRC, 'transcript')];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The text of every string, template and JSX text in a file (what can reach the screen; comments cannot). */
function drawnStrings(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) out.push(node.text);
    else if (ts.isTemplateExpression(node)) out.push(node.head.text, ...node.templateSpans.map((span) => span.literal.text));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('glyphs', () => {
  it('src/ui and src/transcript draw no character whose width terminals disagree on', () => {
    const offenders: string[] = [];
    const files = DRAWING.flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      for (const text of drawnStrings(file)) {
        for (const char of text) {
          if (char.charCodeAt(0) < 0x80) continue;
          const emojiCapable = /\p{Extended_Pictographic}|\p{Emoji_Presentation}|\uFE0F/u.test(char);
          if (emojiCapable || stringWidth(char) !== 1) {
            offenders.push(`${path.relative(SRC, file)}: ${char} U+${char.codePointAt(0)!.toString(16).toUpperCase()}`);
          }
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  const width = 30;
  const ctx = { styles: chatStyles(colourTheme), reasoningCollapsed: false, expanded: false, now: 0 };
  const fits = (item: ChatItem) => layoutItem(item, width, ctx).lines.map((line) => stripSgr(line));

  it('a status line as wide as the view takes one row, glyph included', () => {
    for (const level of ['info', 'warn', 'error'] as const) {
      const rows = fits(status(level, 'x'.repeat(width - 2)));
      expect(rows, level).toHaveLength(1);
      expect(stringWidth(rows[0]!), level).toBe(width);
    }
  });

  it('an end note and a finished tool row fill the width without wrapping early', () => {
    const note = fits(assistant('', { endNote: 'y'.repeat(width - 2) }));
    expect(note).toHaveLength(1);
    const done = fits(tool({ state: 'done', name: 'n'.repeat(width - 2), args: {}, result: 'ok' }));
    expect(done[0]).toBe(`✓ ${'n'.repeat(width - 2)}`);
  });
});
