import type { Tool } from '@modelcontextprotocol/client';
import { schemaProblem } from '../tools/names';
import { redact } from './errors';
import type { McpLimits } from './options';
import type { McpToolInfo } from './types';

// What a server's tool list becomes in its snapshot: bounded, one definition per name, the
// server's own secrets taken out, and a warning for every tool too large to offer the model.

const MAX_TOOLS = 1_000;
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

export function acceptTools(tools: Tool[], context: ToolListContext): McpToolInfo[] {
  const { alias, warn } = context;
  if (tools.length > MAX_TOOLS) {
    warn(`mcp ${alias}: server lists ${tools.length} tools; only the first ${MAX_TOOLS} are used`);
  }
  const infos: McpToolInfo[] = [];
  const seen = new Set<string>();
  for (const tool of tools.slice(0, MAX_TOOLS)) {
    // Two definitions under one name: which one would run? Only the first is kept, and said so.
    if (seen.has(tool.name)) {
      warn(`mcp ${alias}: the server lists ${alias}__${tool.name} more than once; only the first definition is used`);
      continue;
    }
    seen.add(tool.name);
    infos.push(redactTool(toolInfo(tool), context.secrets));
  }
  for (const info of infos) {
    // A tool that runs only as a task is said once, when the model's tool list is built (names.ts).
    const problem = schemaProblem(info.inputSchema, context.limits);
    if (problem) warn(`mcp ${alias}: ${alias}__${info.name} withheld from the model: ${problem}`);
  }
  return infos;
}
