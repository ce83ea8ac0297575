import type { ServerLogEntry, ServerLogLevel } from '../../services/mcp/types';
import { sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import { markWhitespace, wrapLine, type Line, type Tone } from './text';
import { pushAll } from '../../services/terminal/rows';

/** Log entries shown in the server's details, newest last (the session keeps up to 200). */
export const SHOWN_LOG_ENTRIES = 50;

const TONES: Record<ServerLogLevel, Tone> = {
  debug: 'muted',
  info: 'muted',
  notice: 'muted',
  warning: 'warn',
  error: 'error',
  critical: 'error',
  alert: 'error',
  emergency: 'error',
};

function clock(at: number): string {
  const date = new Date(at);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

/** The server's log messages (`notifications/message`) for its details view, escaped and wrapped. */
export function serverLogLines(log: readonly ServerLogEntry[] | undefined, columns: number): Line[] {
  if (!log || log.length === 0) return [];
  const shown = log.slice(-SHOWN_LOG_ENTRIES);
  const lines: Line[] = [[], [{ text: `log, last ${shown.length} message${shown.length === 1 ? '' : 's'}${log.length > shown.length ? ` of ${log.length}` : ''}`, tone: 'muted' }]];
  for (const entry of shown) {
    const head: Line = [
      { text: `${clock(entry.at)} `, tone: 'muted' },
      { text: entry.level, tone: TONES[entry.level] },
      ...(entry.logger ? [{ text: ` [${sanitizeLabel(entry.logger)}]`, tone: 'muted' as const }] : []),
      { text: ' ' },
    ];
    const [first = [], ...rest] = markWhitespace(sanitizeStrict(entry.text));
    pushAll(lines, wrapLine([...head, ...first], columns));
    for (const line of rest) pushAll(lines, wrapLine([{ text: '  ' }, ...line], columns));
  }
  return lines;
}
