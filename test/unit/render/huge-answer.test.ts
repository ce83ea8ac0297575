import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { TranscriptLayer } from '../../../src/transcript/layer';
import { TranscriptCache } from '../../../src/transcript/transcript';
import { createAppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { createTheme } from '../../../src/terminal/theme';

// Huge answers never crash the app (README "Safety"): no list of unbounded length is spread into a
// call, and whatever fails while the transcript layer lays out is shown in its place.

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const at = '2026-01-01T00:00:00.000Z';
// About 2 MB, 150k short lines, a code block that never closes.
const HUGE = `Here it comes:\n\n\`\`\`js\n${Array.from({ length: 150_000 }, (_, index) => `x${index % 10}=${index};`).join('\n')}\n`;

function layerFor(store = createAppStore()) {
  const layer = new TranscriptLayer(store, () => {}, new TranscriptCache());
  layer.attach({ width: 80, height: 20, theme: createTheme({}) });
  return { store, layer };
}

const plain = (rows: readonly string[]) => rows.map((row) => row.replace(/\x1b\[[0-9;]*m/g, ''));

describe('a huge answer in the transcript', () => {
  it('a 2 MB code block that never closes is drawn while it streams and once it ended', () => {
    const streaming = layerFor();
    streaming.store.getState().applyConversationEvents([{ type: 'text-delta', text: HUGE }]);
    expect(plain(streaming.layer.rows()).join('\n')).toContain('x9=149999;');
    streaming.layer.dispose();

    const ended = layerFor();
    ended.store.getState().loadHistory([{ id: 'a1', role: 'assistant', content: HUGE, at }]);
    expect(plain(ended.layer.rows()).join('\n')).toContain('x9=149999;');
    ended.layer.dispose();
  });

  it('an error while laying out is shown in the transcript, escaped, and the next change draws again', () => {
    const { store, layer } = layerFor();
    // An item whose text cannot be read: stands for any bug in the layout code.
    const broken = { kind: 'assistant', id: 'bad', version: 0, reasoning: '', streaming: false } as unknown as ChatItem;
    Object.defineProperty(broken, 'text', {
      get() {
        throw new Error('boom \x1b[2J\x1b]0;owned\x07');
      },
    });
    store.setState({ items: [broken] });
    let rows: readonly string[] = [];
    expect(() => (rows = layer.rows())).not.toThrow();
    const shown = plain(rows).join('\n');
    expect(shown).toContain('the transcript could not be drawn');
    expect(shown).toContain('boom');
    // The error text is sanitized: no raw escape reaches the screen.
    expect(rows.join('')).not.toMatch(/\x1b\[2J|\x1b\]0;|\x07/);
    store.getState().clearChat();
    store.getState().loadHistory([{ id: 'a2', role: 'assistant', content: 'fine again', at }]);
    expect(plain(layer.rows()).join('\n')).toContain('fine again');
    layer.dispose();
  });
});

describe('no unbounded spreads into calls', () => {
  // Where lists as long as an answer, a result or a schema are built: spreading one into a call puts
  // every element on the stack. pushAll / maxOf (src/services/terminal/rows.ts) loop instead.
  const FOLDERS = ['src/transcript', 'src/terminal', 'src/ui/panels', 'src/services/mcp/describe.ts', 'src/services/broker/accumulator.ts'];
  // Calls that take their elements as arguments; a spread in any argument (after a literal first
  // argument too, or across lines) puts the whole list on the stack.
  const SPREAD_TARGETS = new Set(['push', 'unshift', 'max', 'min', 'fromCharCode', 'fromCodePoint']);

  /** `file:line: call` for every call of SPREAD_TARGETS with a spread argument (read with the TypeScript parser). */
  function spreadCalls(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const found: string[] = [];
    const visit = (node: ts.Node) => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
        if (SPREAD_TARGETS.has(name) && node.arguments.some(ts.isSpreadElement)) {
          const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
          found.push(`${file}:${line}: ${node.getText(source).split('\n')[0]!.trim()}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
  }

  function files(entry: string): string[] {
    const full = path.join(ROOT, entry);
    if (statSync(full).isFile()) return [entry];
    return readdirSync(full).flatMap((name) => files(path.join(entry, name)));
  }

  it('none in the transcript, the terminal, the panels, tool descriptions or the tool-call accumulator', () => {
    const offenders = FOLDERS.flatMap(files)
      .filter((file) => /\.tsx?$/.test(file))
      .flatMap((file) => spreadCalls(file));
    expect(offenders).toEqual([]);
  });

  it('the scan finds a spread after a literal first argument and one across lines', () => {
    const sample = 'body.push([{ text: "x" }], ...rows(text));\nbody.push(\n  a,\n  ...rest,\n);\nMath.max(0, ...widths);\nbody.push([...rows]);\n';
    expect(spreadCalls('sample.ts', sample).map((line) => line.split(': ')[0])).toEqual(['sample.ts:1', 'sample.ts:2', 'sample.ts:6']);
  });
});
