// What `:context` and `:model` say about the context budget (README.md, "Context").
import path from 'node:path';
import type { ProjectDoc } from '../services/config/project-docs';
import type { ContextWindow } from '../services/context/index';
import type { ContextSnapshot } from '../services/conversation/types';

export const formatTokenCount = (value: number): string => (value < 1000 ? String(value) : value < 100_000 ? `${(value / 1000).toFixed(1)}k` : `${Math.round(value / 1000)}k`);

/** A window in the units it was chosen in (`4k`, `32k`, `128k`), as the status bar's meter shows it. */
export const formatWindowSize = (tokens: number): string => (tokens < 1000 ? String(tokens) : tokens % 1000 === 0 ? `${tokens / 1000}k` : tokens % 1024 === 0 ? `${tokens / 1024}k` : `${Math.round(tokens / 1000)}k`);

/** `4096 tokens (llama.cpp /props …; the model could run with 131072)` or `unknown: …`. */
/** `40 s`, `12 min`, `3 h`, `2 days`. */
function age(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 48 * 3600) return `${Math.round(seconds / 3600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}

export function describeWindow(window: ContextWindow | undefined, now = Date.now()): string {
  if (!window) return 'not asked yet';
  const maximum = window.maximum !== undefined && window.maximum !== window.tokens ? `; the model could run with ${window.maximum}` : '';
  if (window.tokens === undefined) return `${window.source}${maximum}`;
  const remembered = window.remembered !== undefined && window.askedAt !== undefined ? `, asked ${age(now - window.askedAt)} ago (remembered in ${window.remembered})` : '';
  return `${window.tokens} tokens, from ${window.source}${remembered}${maximum}`;
}

/** The `:context` breakdown. */
export function contextLines(snapshot: ContextSnapshot | undefined, settings: { autoCompactAt: number | false; reserveFrom: string }): string[] {
  if (!snapshot) return ['context: nothing to measure yet (no model, or the history cannot be sent as it is)'];
  const { parts, window } = snapshot;
  const share = window.tokens ? ` (${Math.round((snapshot.used / window.tokens) * 100)}%)` : '';
  const of = window.tokens ? ` of ${formatWindowSize(window.tokens)}` : ' (window unknown)';
  const servers = Object.entries(parts.toolsByServer)
    .sort((a, b) => b[1] - a[1])
    .map(([alias, tokens]) => `${alias} ${formatTokenCount(tokens)}`)
    .join(', ');
  const row = (label: string, value: number, note = '') => `  ${label.padEnd(22)}${formatTokenCount(value).padStart(7)}${note ? `  ${note}` : ''}`;
  const lines = [
    `context of ${snapshot.model}: ${formatTokenCount(snapshot.used)}${of} tokens${share}, ${snapshot.reported ? 'counted by the server for the last request' : (snapshot.counting ?? 'estimated')}`,
    `window: ${describeWindow(window)}`,
    row('system prompt', parts.system),
    row('tool definitions', parts.tools, servers),
    row('conversation', parts.messages),
    row('reserve for the answer', parts.reserve, settings.reserveFrom),
  ];
  if (settings.autoCompactAt === false) lines.push('automatic compaction is off (context.autoCompactAt: false); :compact [focus] compacts now');
  else if (snapshot.compactAt !== undefined) lines.push(`compacts before a request passes ${formatTokenCount(snapshot.compactAt)} tokens (context.autoCompactAt ${settings.autoCompactAt} of what the reserve leaves); :compact [focus] compacts now`);
  else lines.push('no automatic compaction while the window is unknown (set contextWindow for the model); :compact [focus] compacts now');
  return lines;
}

/** `:context`'s lines about the AGENTS.md files in the system prompt (README.md, "Project context"). */
export function projectDocLines(docs: readonly ProjectDoc[] | undefined, cwd: string, projectConfig?: string): string[] {
  const lines: string[] = [];
  if (docs && docs.length > 0) {
    lines.push('project instructions in the system prompt, in this order:');
    for (const doc of docs) lines.push(`  ${path.relative(cwd, doc.file) || doc.file}  ${doc.chars} characters${doc.cut ? ' (cut at context.maxProjectDocChars)' : ''}`);
  }
  if (projectConfig) lines.push(`project config in use: ${path.relative(cwd, projectConfig) || projectConfig}`);
  return lines;
}
