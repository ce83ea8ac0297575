import type { Tool } from '@modelcontextprotocol/client';
import { schemaProblem } from '../tools/names';
import { sanitizeName } from '../terminal/look-alike';
import { redact } from './errors';
import type { McpLimits } from './options';
import type { McpToolInfo } from './types';

// What a server's tool list becomes in its snapshot: bounded, one definition per name, the
// server's own secrets taken out, and a warning for every tool too large to offer the model.
// (Absurd definitions never get here: tool-list-guard.ts drops them from the raw answer.)

export const MAX_TOOLS = 1_000;
/** Icons are for display; a server listing hundreds of sizes does not need them all kept. */
const MAX_ICONS = 8;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function toolInfo(tool: Tool): McpToolInfo {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: (tool.inputSchema ?? { type: 'object' }) as Record<string, unknown>,
    ...(tool.annotations !== undefined ? { annotations: tool.annotations as Record<string, unknown> } : {}),
    ...(isObject(tool.outputSchema) ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(isObject(tool.execution) ? { execution: tool.execution as Record<string, unknown> } : {}),
    ...(Array.isArray(tool.icons) ? { icons: tool.icons.filter(isObject).slice(0, MAX_ICONS) as Array<Record<string, unknown>> } : {}),
  };
}

export interface ToolListContext {
  alias: string;
  limits: McpLimits;
  /** This server's known secret values (tokens, header values, env values). */
  secrets: readonly string[];
  warn: (message: string) => void;
}

/** A server that echoes its token into a description or schema must not put it on screen (or in the model's context). */
function redactTool(info: McpToolInfo, secrets: readonly string[]): McpToolInfo {
  if (secrets.length === 0) return info;
  const json = JSON.stringify(info);
  const cleaned = redact(json, secrets.map((secret) => JSON.stringify(secret).slice(1, -1)));
  return cleaned === json ? info : (JSON.parse(cleaned) as McpToolInfo);
}

/**
 * Names that stand for more than one definition: the same name twice, or two names that are the
 * same text in different Unicode forms (`é` as one code point or as `e` + accent), which look
 * alike everywhere they are shown.
 */
export function duplicateNames(tools: readonly Tool[]): Set<string> {
  const byForm = new Map<string, string[]>();
  for (const tool of tools) {
    const form = tool.name.normalize('NFC');
    byForm.set(form, [...(byForm.get(form) ?? []), tool.name]);
  }
  const duplicates = new Set<string>();
  for (const names of byForm.values()) if (names.length > 1) for (const name of names) duplicates.add(name);
  return duplicates;
}

export function acceptTools(tools: Tool[], context: ToolListContext): McpToolInfo[] {
  const { alias, warn } = context;
  if (tools.length > MAX_TOOLS) {
    warn(`mcp ${alias}: server lists ${tools.length} tools; only the first ${MAX_TOOLS} are used`);
  }
  const listed = tools.slice(0, MAX_TOOLS);
  // Two definitions under one name: which one would run, and which one did the user approve?
  // Neither is used, rather than whichever came first.
  const duplicates = duplicateNames(listed);
  if (duplicates.size > 0) {
    const names = [...new Set([...duplicates].map((name) => name.normalize('NFC')))].map((name) => sanitizeName(`${alias}__${name}`));
    warn(`mcp ${alias}: the server lists ${names.join(', ')} more than once; none of the definitions under ${names.length === 1 ? 'that name is' : 'those names are'} used`);
  }
  const infos = listed.filter((tool) => !duplicates.has(tool.name)).map((tool) => redactTool(toolInfo(tool), context.secrets));
  for (const info of infos) {
    // A tool that runs only as a task is said once, when the model's tool list is built (names.ts).
    const problem = schemaProblem(info.inputSchema, context.limits);
    if (problem) warn(`mcp ${alias}: ${sanitizeName(`${alias}__${info.name}`)} withheld from the model: ${problem}`);
  }
  return infos;
}

/** `a, b and 3 more`: names for a status line, each one line and escaped, the list capped. */
function names(list: readonly string[], max = 8): string {
  const shown = list.slice(0, max).map((name) => sanitizeName(name.length > 48 ? `${name.slice(0, 48)}…` : name));
  return list.length > max ? `${shown.join(', ')} and ${list.length - max} more` : shown.join(', ');
}

/** `; added: x, y; removed: z` between two lists of one server (empty when only definitions changed). */
export function listDifference(before: readonly McpToolInfo[], after: readonly McpToolInfo[]): string {
  const old = new Set(before.map((tool) => tool.name));
  const now = new Set(after.map((tool) => tool.name));
  const added = [...now].filter((name) => !old.has(name));
  const removed = [...old].filter((name) => !now.has(name));
  return `${added.length > 0 ? `; added: ${names(added)}` : ''}${removed.length > 0 ? `; removed: ${names(removed)}` : ''}`;
}
