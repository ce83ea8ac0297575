import type { McpToolInfo } from '../mcp/index';
import type { PinStore } from './pins';

// A server's `instructions` are pinned like a tool definition (docs/ARCHITECTURE.md, Security
// invariants 4): they go into the system prompt, so a server that changes them changes what the
// model is told. They are kept in the same pin store under a name no tool can have (MCP tool
// names are letters, digits, `_`, `-` and `.`).

export const INSTRUCTIONS_PIN = '(instructions)';

const asDefinition = (text: string): McpToolInfo => ({ name: INSTRUCTIONS_PIN, description: text, inputSchema: {} });

/** Pins instructions seen for the first time; true when they differ from the pin. */
export function instructionsChanged(pins: PinStore, alias: string, text: string): boolean {
  return pins.observe(alias, [asDefinition(text)]).has(INSTRUCTIONS_PIN);
}

/** The user accepted these instructions: they become the pin. */
export function acceptInstructions(pins: PinStore, alias: string, text: string): void {
  pins.accept(alias, asDefinition(text));
}
