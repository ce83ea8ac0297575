import type { McpToolInfo } from '../../services/mcp/types';
import { hiddenTextFindings } from '../../services/terminal/hidden-text';
import { lookAlikeNote, LOOK_ALIKE_BADGE, sanitizeName } from '../../services/terminal/look-alike';
import { wrapWords, type Line } from './text';
import { pushAll } from '../../services/terminal/rows';

// How a tool's name is shown where the user browses tools (sidebar, tool details): non-ASCII
// characters as code points with a badge (a name that may imitate another), and a badge for
// hidden characters anywhere in its definition (docs/ARCHITECTURE.md, Security invariants 3, 9).

export const HIDDEN_BADGE = '▲ hidden text';

/** The sidebar's badge: the row is narrow, the name already shows its code points, the details say why. */
export const SIDEBAR_BADGE = '▲';

/** Badges per tool definition: scanning a whole definition for hidden text is not redone for every frame. */
const badges = new WeakMap<McpToolInfo, { name: string; text: string }>();

/** The name to show and the badge after it (empty when nothing is wrong). */
export function toolBadge(tool: McpToolInfo): { name: string; text: string } {
  let badge = badges.get(tool);
  if (badge === undefined) {
    const flagged = lookAlikeNote(tool.name) !== undefined || hiddenTextFindings(tool).length > 0;
    badge = { name: sanitizeName(tool.name), text: flagged ? SIDEBAR_BADGE : '' };
    badges.set(tool, badge);
  }
  return badge;
}

/** The warnings at the top of a tool's details. */
export function toolWarningLines(tool: McpToolInfo, columns: number): Line[] {
  const lines: Line[] = [];
  const lookAlike = lookAlikeNote(tool.name);
  if (lookAlike) pushAll(lines, wrapWords(`${LOOK_ALIKE_BADGE}: the name holds ${lookAlike}; it may imitate another name.`, columns, 'warn'));
  const hidden = hiddenTextFindings(tool);
  if (hidden.length > 0) {
    pushAll(lines, wrapWords(`${HIDDEN_BADGE}: invisible or control characters (shown below as <U+…> or \\x..), removed from what the model receives:`, columns, 'warn'));
    for (const finding of hidden) pushAll(lines, wrapWords(`  ${finding}`, columns, 'warn'));
  }
  return lines;
}
