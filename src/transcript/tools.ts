import { sanitize, sanitizeLabel, sanitizeStrict } from '../services/terminal/sanitize';
import type { ChatItem } from '../state/types';
import type { ToolDecision } from '../services/conversation/types';
import { ERROR_GLYPH, formatElapsed, INDENT, LIMITS, OK_GLYPH, omittedLine, spinnerFrame, type ItemContext } from './common';
import { screenCut } from '../services/terminal/screen-cut';
import { clipHead, clipTail } from './preview';
import type { ChatStyles, Style } from './style';
import { serialize, spansWidth, truncateSpans, wrapSpans, type Span } from './text';
import { pushAll } from '../services/terminal/rows';

/**
 * Tool calls and shell commands as they sit in the transcript once decided: a header row with a
 * state glyph, name and arguments, then the decision, progress and a preview of the result.
 * Pending calls and proposed commands are drawn by the approval frames below the transcript.
 */

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;
type CommandItem = Extract<ChatItem, { kind: 'command' }>;

/** Result rows shown under a finished call unless it is expanded. */
export const PREVIEW_ROWS = 5;
/** Output rows shown under a command unless it is expanded (the last ones: errors come at the end). */
export const COMMAND_ROWS = 8;
/** Characters looked at for a preview: enough for its rows even when lines are long. */
const PREVIEW_CHARS = 16 * 1024;

function gutter(styles: ChatStyles): Span[] {
  return [{ text: '  ' }, { text: '│ ', style: styles.muted }];
}

/** Glyph, name, arguments cut to fit, then a suffix that always stays visible. */
function header(glyph: Span, name: Span, detail: string, suffix: Span[], width: number, styles: ChatStyles): string {
  const fixed: Span[] = [glyph, { text: ' ' }, name];
  const room = width - spansWidth(fixed) - spansWidth(suffix) - 1;
  const spans = [...fixed];
  if (detail.length > 0 && room >= 4) { spans.push({ text: ' ' }); pushAll(spans, truncateSpans([{ text: detail, style: styles.muted }], room)); }
  pushAll(spans, suffix);
  return serialize(truncateSpans(spans, width));
}

/** Wraps untrusted text under a gutter; at most `maxRows` rows, counting a cut as "more". */
function gutterRows(text: string, width: number, styles: ChatStyles, maxRows: number, style?: Style): { rows: string[]; cut: boolean } {
  const prefix = gutter(styles);
  const rows = wrapSpans([{ text, style }], width, { firstPrefix: prefix, restPrefix: prefix, maxLines: maxRows + 1 });
  const cut = rows.length > maxRows;
  if (cut) rows.length = maxRows;
  return { rows, cut };
}

/** Rules name their source themselves (`session rule x__y`, `config mcp.autoApprove x__*`). */
function decisionLine(decision: ToolDecision | undefined, styles: ChatStyles): Span | undefined {
  if (!decision) return undefined;
  if (decision.action === 'allow') {
    if (decision.by === 'rule') return { text: `auto-approved by ${sanitizeLabel(decision.rule)}`, style: styles.muted };
    if (decision.scope === 'tool') return { text: 'allowed; this tool is now always allowed for the session', style: styles.muted };
    if (decision.scope === 'server') return { text: "allowed; this server's tools are now always allowed for the session", style: styles.muted };
    return undefined;
  }
  if (decision.action === 'deny') {
    if (decision.by === 'user') return { text: decision.reason ? `denied by you: ${decision.reason}` : 'denied by you', style: styles.warn };
    if (decision.by === 'rule') return { text: `denied by ${sanitizeLabel(decision.rule)}`, style: styles.warn };
    return { text: 'denied: no rule allows it without a prompt', style: styles.warn };
  }
  return { text: `skipped: ${decision.reason}`, style: styles.muted };
}

function progressLine(item: ToolItem, width: number, styles: ChatStyles): string | undefined {
  const progress = item.progress;
  if (!progress) return undefined;
  const message = progress.message ? ` ${sanitizeLabel(progress.message)}` : '';
  const spans: Span[] = [{ text: '  ' }];
  if (progress.total !== undefined && progress.total > 0 && Number.isFinite(progress.progress)) {
    const ratio = Math.min(1, Math.max(0, progress.progress / progress.total));
    const barWidth = Math.max(4, Math.min(24, width - 12));
    const filled = Math.round(ratio * barWidth);
    spans.push({ text: '█'.repeat(filled), style: styles.accent }, { text: '░'.repeat(barWidth - filled), style: styles.muted });
    spans.push({ text: ` ${Math.round(ratio * 100)}%` });
  } else {
    spans.push({ text: `progress ${Number.isFinite(progress.progress) ? progress.progress : '?'}`, style: styles.muted });
  }
  spans.push({ text: message, style: styles.muted });
  return serialize(truncateSpans(spans, width));
}

const TOOL_GLYPHS: Record<Exclude<ToolItem['state'], 'pending' | 'running'>, string> = {
  done: OK_GLYPH,
  error: ERROR_GLYPH,
  denied: '⊘',
  cancelled: '◌',
  skipped: '↷',
};

function toolGlyph(item: ToolItem, ctx: ItemContext): Span {
  const { styles } = ctx;
  if (item.state === 'running' || item.state === 'pending') return { text: spinnerFrame(ctx.now), style: styles.accent };
  const style = item.state === 'done' ? styles.ok : item.state === 'error' ? styles.error : item.state === 'denied' ? styles.warn : styles.muted;
  return { text: TOOL_GLYPHS[item.state], style };
}

function toolSuffix(item: ToolItem, ctx: ItemContext): Span[] {
  const { styles } = ctx;
  const elapsed = item.startedAt !== undefined ? formatElapsed((item.state === 'running' ? ctx.now : (item.endedAt ?? ctx.now)) - item.startedAt) : undefined;
  switch (item.state) {
    case 'running':
      return [{ text: ` ${elapsed ?? ''}`.trimEnd(), style: styles.muted }];
    case 'done':
      return elapsed ? [{ text: ` ${elapsed}`, style: styles.muted }] : [];
    case 'error':
      return [{ text: ' failed', style: styles.error }, ...(elapsed ? [{ text: ` ${elapsed}`, style: styles.muted }] : [])];
    default:
      return [{ text: ` ${item.state}`, style: item.state === 'denied' ? styles.warn : styles.muted }];
  }
}

function compactArguments(item: ToolItem): string {
  if (item.call.arguments) {
    try {
      return sanitizeLabel(JSON.stringify(item.call.arguments));
    } catch {
      // Unserializable arguments (cycles cannot come from JSON, but be safe): show the raw text.
    }
  }
  return sanitizeLabel(item.call.rawArguments.trim());
}

function prettyArguments(item: ToolItem): string {
  if (item.call.arguments) {
    try {
      return sanitizeStrict(JSON.stringify(item.call.arguments, null, 2));
    } catch {
      // fall through to the raw text
    }
  }
  return sanitizeStrict(item.call.rawArguments);
}

export function toolItemLines(item: ToolItem, width: number, ctx: ItemContext): string[] {
  const { styles } = ctx;
  const name: Span = { text: sanitizeLabel(item.call.wireName), style: { bold: true } };
  const lines = [header(toolGlyph(item, ctx), name, ctx.expanded ? '' : compactArguments(item), toolSuffix(item, ctx), width, styles)];

  const decision = decisionLine(item.decision, styles);
  if (decision) pushAll(lines, wrapSpans([{ ...decision, text: sanitize(decision.text) }], width, { firstPrefix: INDENT, restPrefix: INDENT }));

  if (item.state === 'running') {
    const progress = progressLine(item, width, styles);
    if (progress) lines.push(progress);
  }

  if (ctx.expanded) {
    lines.push(serialize(truncateSpans([{ text: '  arguments', style: styles.muted }], width)));
    pushAll(lines, gutterRows(prettyArguments(item), width, styles, LIMITS.expandedLines).rows);
  }

  const showsResult = item.state === 'done' || item.state === 'error' || item.state === 'cancelled';
  if (showsResult && item.result !== undefined) {
    if (ctx.expanded) lines.push(serialize(truncateSpans([{ text: '  result', style: styles.muted }], width)));
    const limit = ctx.expanded ? LIMITS.expandedLines : PREVIEW_ROWS;
    // A result cut for the screen counts the lines of the whole result, not of the kept part.
    const screen = screenCut(item.result);
    const shown = clipHead(screen?.kept ?? item.result, limit, ctx.expanded ? LIMITS.expandedChars : PREVIEW_CHARS);
    const clipped = screen ? { ...shown, omittedLines: shown.omittedLines + screen.hiddenLines } : shown;
    if (clipped.text.trim().length === 0 && clipped.omittedLines === 0) {
      lines.push(serialize(truncateSpans([{ text: '  (no output)', style: styles.muted }], width)));
    } else {
      const { rows, cut } = gutterRows(sanitize(clipped.text), width, styles, limit, item.state === 'error' ? styles.error : undefined);
      pushAll(lines, rows);
      if (clipped.omittedLines > 0) pushAll(lines, omittedLine(clipped, styles, 'more', width, screen && ctx.expanded ? 'the session log has all of it' : undefined));
      else if (screen) pushAll(lines, wrapSpans([{ text: screen.note, style: styles.muted }], width, { firstPrefix: INDENT, restPrefix: INDENT }));
      else if (cut) lines.push(serialize(truncateSpans([{ text: '  … more', style: styles.muted }], width)));
    }
  }
  return lines;
}

function commandSuffix(item: CommandItem, styles: ChatStyles): Span[] {
  const state = commandState(item, styles);
  return item.sandboxed ? [...state, { text: ' · sandboxed', style: styles.muted }] : state;
}

function commandState(item: CommandItem, styles: ChatStyles): Span[] {
  switch (item.state) {
    case 'running':
      return [{ text: ' running', style: styles.muted }];
    case 'skipped':
      return [{ text: ' skipped', style: styles.muted }];
    default:
      if (item.timedOut) return [{ text: ' timed out', style: styles.error }];
      if (item.refused) return [{ text: ' not run', style: styles.error }];
      if (item.exitCode === null || item.exitCode === undefined) return [{ text: ' killed', style: styles.error }];
      return [{ text: ` exit ${item.exitCode}`, style: item.exitCode === 0 ? styles.muted : styles.error }];
  }
}

export function commandItemLines(item: CommandItem, width: number, ctx: ItemContext): string[] {
  const { styles } = ctx;
  const ok = item.state === 'done' && item.exitCode === 0 && !item.timedOut;
  const glyph: Span =
    item.state === 'running' || item.state === 'proposed'
      ? { text: spinnerFrame(ctx.now), style: styles.accent }
      : item.state === 'skipped'
        ? { text: '↷', style: styles.muted }
        : { text: ok ? OK_GLYPH : ERROR_GLYPH, style: ok ? styles.ok : styles.error };
  const commandLines = item.command.replace(/\n+$/, '').split('\n');
  const first = sanitizeLabel(commandLines[0] ?? '');
  const more = commandLines.length > 1 && !ctx.expanded ? ` (+${commandLines.length - 1} lines)` : '';
  const lines = [header(glyph, { text: `$ ${first}`, style: { bold: true } }, more, commandSuffix(item, styles), width, styles)];
  if (ctx.expanded && commandLines.length > 1) {
    pushAll(lines, gutterRows(sanitizeStrict(commandLines.slice(1).join('\n')), width, styles, LIMITS.expandedLines, { bold: true }).rows);
  }
  if (item.state === 'skipped' || item.output.length === 0) return lines;

  const limit = ctx.expanded ? LIMITS.expandedLines : COMMAND_ROWS;
  const clipped = clipTail(item.output, limit, ctx.expanded ? LIMITS.expandedChars : PREVIEW_CHARS);
  const prefix = gutter(styles);
  const rows = wrapSpans([{ text: sanitize(clipped.text) }], width, { firstPrefix: prefix, restPrefix: prefix });
  const cutRows = rows.length > limit ? rows.length - limit : 0;
  if (clipped.omittedLines > 0 || cutRows > 0) {
    pushAll(lines, omittedLine({ ...clipped, omittedLines: clipped.omittedLines + (cutRows > 0 && clipped.omittedLines === 0 ? 1 : 0) }, styles, 'earlier', width));
  }
  pushAll(lines, rows.slice(cutRows));
  return lines;
}
