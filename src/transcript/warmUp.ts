import type { ChatItem } from '../state/types';
import type { Theme } from '../terminal/theme';
import { layoutItem } from './items';
import { warmUpMarkdown } from './markdown';
import { chatStyles } from './style';

/**
 * One of each kind of row a conversation shows besides answers: a finished tool call with its
 * arguments and result, a command with output, the user's message, a status line.
 */
const WARM_UP_ITEMS: ChatItem[] = [
  { kind: 'user', id: 'warm-user', version: 0, text: 'a question' },
  {
    kind: 'tool',
    id: 'warm-tool',
    version: 0,
    state: 'done',
    call: { id: 'warm-call', wireName: 'server__tool', alias: 'server', tool: 'tool', rawArguments: '{"expression":"1+2"}', arguments: { expression: '1+2' } },
    decision: { action: 'allow', by: 'rule', rule: 'server__tool' },
    startedAt: 0,
    endedAt: 1,
    result: '3',
  },
  { kind: 'command', id: 'warm-command', version: 0, command: 'ls', state: 'done', output: 'a\nb\n', exitCode: 0 },
  { kind: 'status', id: 'warm-status', version: 0, level: 'info', text: 'a status line' },
];

/**
 * Does once, in idle time after the first frame, what the first answer and the first tool call
 * would otherwise do first while the user waits: marked compiling its expressions and the common
 * grammars (warmUpMarkdown), and the first layout of a tool call, a command and a status line
 * (a few milliseconds of code running for the first time, in the middle of a tool loop).
 * The rows laid out here are thrown away.
 */
export function warmUpTranscript(theme: Theme | undefined, width: number): void {
  warmUpMarkdown();
  if (!theme || width <= 0) return;
  const ctx = { styles: chatStyles(theme), reasoningCollapsed: false, expanded: false, now: Date.now() };
  for (const item of WARM_UP_ITEMS) layoutItem(item, width, ctx);
}
