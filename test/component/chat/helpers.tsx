import { render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { ChatView, type ChatViewProps } from '../../../src/ui/panels/ChatView';
import { TranscriptCache } from '../../../src/transcript/transcript';
import { createTheme, type Theme } from '../../../src/terminal/theme';
import type { ChatItem } from '../../../src/state/types';

export const colourTheme: Theme = createTheme({});
export const plainTheme: Theme = createTheme({ NO_COLOR: '1' });

/** Our own escapes: SGR only. */
const SGR = /\x1b\[[0-9;]*m/g;

export function stripSgr(text: string): string {
  return text.replace(SGR, '');
}

/** Every ESC in `text` that does not start one of our SGR sequences. */
export function foreignEscapes(text: string): string[] {
  const found: string[] = [];
  for (let index = text.indexOf('\x1b'); index !== -1; index = text.indexOf('\x1b', index + 1)) {
    const rest = text.slice(index);
    if (!/^\x1b\[[0-9;]*m/.test(rest)) found.push(JSON.stringify(rest.slice(0, 12)));
  }
  return found;
}

/** Characters that must never reach the terminal raw: C0 (except newline), DEL, C1, bidi controls. */
export const RAW_CONTROL = /[\x00-\x09\x0b-\x1a\x1c-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

export function rowsOf(frame: string | undefined): string[] {
  return stripSgr(frame ?? '').split('\n');
}

export function widestRow(frame: string | undefined): number {
  return Math.max(0, ...rowsOf(frame).map((row) => stringWidth(row)));
}

let ids = 0;
export const nextId = (prefix: string) => `${prefix}-${++ids}`;

export function user(text: string, id = nextId('u')): ChatItem {
  return { kind: 'user', id, version: 0, text };
}

export function assistant(text: string, extra: Partial<Extract<ChatItem, { kind: 'assistant' }>> = {}): Extract<ChatItem, { kind: 'assistant' }> {
  return { kind: 'assistant', id: nextId('a'), version: 0, text, reasoning: '', streaming: false, ...extra };
}

export function status(level: 'info' | 'warn' | 'error', text: string): ChatItem {
  return { kind: 'status', id: nextId('s'), version: 0, level, text };
}

export function tool(extra: Partial<Extract<ChatItem, { kind: 'tool' }>> & { name?: string; args?: Record<string, unknown> } = {}): Extract<ChatItem, { kind: 'tool' }> {
  const id = extra.id ?? nextId('t');
  const args = extra.args ?? { expression: '2+2' };
  const { name, args: _args, ...rest } = extra;
  return {
    kind: 'tool',
    id,
    version: 0,
    state: 'done',
    call: { id, wireName: name ?? 'builtin__calculator', alias: 'builtin', tool: 'calculator', rawArguments: JSON.stringify(args), arguments: args },
    ...rest,
  };
}

export function command(extra: Partial<Extract<ChatItem, { kind: 'command' }>> = {}): Extract<ChatItem, { kind: 'command' }> {
  return { kind: 'command', id: nextId('c'), version: 0, command: 'ls -la', state: 'done', output: '', exitCode: 0, ...extra };
}

export function viewProps(items: ChatItem[], overrides: Partial<ChatViewProps> = {}): ChatViewProps {
  return {
    items,
    width: 80,
    height: 40,
    scrollOffset: 0,
    theme: colourTheme,
    focused: false,
    reasoningCollapsed: false,
    expandedIds: new Set<string>(),
    now: 10_000,
    cache: new TranscriptCache(),
    ...overrides,
  };
}

export function renderView(items: ChatItem[], overrides: Partial<ChatViewProps> = {}) {
  const props = viewProps(items, overrides);
  const result = render(<ChatView {...props} />);
  return {
    ...result,
    props,
    text: () => stripSgr(result.lastFrame() ?? ''),
    update: (next: Partial<ChatViewProps>) => {
      Object.assign(props, next);
      result.rerender(<ChatView {...props} />);
    },
  };
}
