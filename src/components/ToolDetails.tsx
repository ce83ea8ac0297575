import type { McpToolInfo } from '../services/mcp/types';
import { sanitize, sanitizeLabel, sanitizeStrict } from '../services/terminal/sanitize';
import { BoxFrame, FRAME_CHROME_ROWS } from './BoxFrame';
import { markWhitespace, wrapLine, wrapWords, type Line } from './text';
import type { Theme } from './theme';

/** Everything known about one tool, escaped and wrapped to `columns`. */
export function toolDetailLines(alias: string, tool: McpToolInfo | undefined, columns: number): Line[] {
  const lines: Line[] = [];
  lines.push(...wrapLine([{ text: sanitizeLabel(`${alias}__${tool?.name ?? '?'}`), tone: 'bold' }], columns));
  if (!tool) {
    lines.push([{ text: 'this tool is no longer offered by the server', tone: 'warn' }]);
    return lines;
  }
  if (tool.title) lines.push(...wrapWords(sanitizeLabel(tool.title), columns, 'accent'));
  lines.push([]);
  if (tool.description) lines.push(...wrapWords(sanitize(tool.description, { invisibles: 'mark', tabs: 'escape' }), columns));
  else lines.push([{ text: 'no description', tone: 'muted' }]);
  if (tool.annotations && Object.keys(tool.annotations).length > 0) {
    lines.push([], [{ text: 'annotations (hints from the server; they never grant approval)', tone: 'muted' }]);
    for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.annotations, null, 2)))) lines.push(...wrapLine(line, columns));
  }
  lines.push([], [{ text: 'input schema', tone: 'muted' }]);
  for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.inputSchema ?? {}, null, 2)))) lines.push(...wrapLine(line, columns));
  return lines;
}

export interface ToolDetailsProps {
  lines: Line[];
  width: number;
  height: number;
  scrollTop: number;
  theme: Theme;
}

/** Rows of text the details frame shows at `height` (the last row holds the scroll position). */
export const toolDetailRows = (height: number) => Math.max(1, height - FRAME_CHROME_ROWS - 1);

/** A tool's description and full input schema, scrollable; opened from the sidebar. */
export function ToolDetails({ lines, width, height, scrollTop, theme }: ToolDetailsProps) {
  const rows = toolDetailRows(height);
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, lines.length - rows)));
  const shown = lines.slice(top, top + rows);
  while (shown.length < rows) shown.push([]);
  const position: Line = [
    {
      text: lines.length > rows ? `lines ${top + 1}–${Math.min(lines.length, top + rows)} of ${lines.length} · ↑↓ PgUp PgDn scroll · Esc close` : 'Esc close',
      tone: 'muted',
    },
  ];
  return <BoxFrame width={width} title={[{ text: 'Tool', tone: 'bold' }]} lines={[...shown, position]} theme={theme} />;
}
