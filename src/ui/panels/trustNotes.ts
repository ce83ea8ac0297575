import type { ToolCallView } from '../../services/conversation/types';
import { lookAlikeNote, LOOK_ALIKE_BADGE } from '../../services/terminal/look-alike';
import { sanitizeLabel } from '../../services/terminal/sanitize';
import { truncate, wrapWords, type Line } from './text';
import { pushAll } from '../../services/terminal/rows';

// What the approval frame says about who is asking, beyond what changed in the definition: a tool
// never approved before that a server-wide rule would otherwise have run (docs/ARCHITECTURE.md,
// Security invariants 9), and names holding non-ASCII characters that may imitate another name
// (invariant 3). Said in the header, before the arguments, in the warning colour.

export interface TrustNotes {
  /** Lines for the full header. */
  full: Line[];
  /** One line each for the compact header. */
  compact: Line[];
  /** Short flags for the one-row header (` ▲ new`). */
  flags: string;
  /** Whether the frame is drawn in the warning colour. */
  warn: boolean;
}

export function trustNotes(call: ToolCallView, columns: number): TrustNotes {
  const full: Line[] = [];
  const compact: Line[] = [];
  let flags = '';
  if (call.newTool) {
    pushAll(full, wrapWords(`▲ New tool: never approved on this server before. The server-wide rule (${sanitizeLabel(call.newTool)}) covers it only after you allow it once.`, columns, 'warn'));
    compact.push([{ text: truncate('▲ new tool: never approved before', columns), tone: 'warn' }]);
    flags += ' ▲ new';
  }
  const names: Array<[string, string | undefined]> = [
    ['server alias', call.alias],
    ['tool name', call.tool],
  ];
  for (const [what, name] of names) {
    const note = name === undefined ? undefined : lookAlikeNote(name);
    if (!note) continue;
    pushAll(full, wrapWords(`${LOOK_ALIKE_BADGE}: the ${what} holds ${note}; it may imitate another name.`, columns, 'warn'));
    compact.push([{ text: truncate(`${LOOK_ALIKE_BADGE} ${what}: ${note}`, columns), tone: 'warn' }]);
    if (!flags.includes(LOOK_ALIKE_BADGE)) flags += ` ${LOOK_ALIKE_BADGE}`;
  }
  return { full, compact, flags, warn: full.length > 0 };
}

/** Whether the frame for this call is drawn in the warning colour for a reason of this module. */
export function trustWarns(call: ToolCallView): boolean {
  return call.newTool !== undefined || [call.alias, call.tool].some((name) => name !== undefined && lookAlikeNote(name) !== undefined);
}
