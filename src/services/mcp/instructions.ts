import { sanitizeStrict } from '../terminal/sanitize';
import type { ServerSnapshot } from './types';

// Server `instructions` (from initialize) for the system prompt: one heading per server, the text
// with control, bidi and invisible characters made visible (docs/ARCHITECTURE.md, Security
// invariants 1: the model reads what the user can read), cut at `maxChars`. Which servers are
// included (the per-server switch, changed instructions not yet accepted) is the caller's choice.

export function instructionsSection(servers: readonly ServerSnapshot[], include: (alias: string) => boolean, maxChars: number): string {
  const parts: string[] = [];
  for (const server of servers) {
    const text = server.state === 'ready' ? server.instructions?.trim() : undefined;
    if (!text || !include(server.alias)) continue;
    const clean = sanitizeStrict(text);
    const cut = clean.length > maxChars ? `${clean.slice(0, maxChars)}\n[… cut: ${clean.length - maxChars} more characters]` : clean;
    parts.push(`## Instructions from MCP server "${server.alias}"\n\n${cut}`);
  }
  return parts.join('\n\n');
}

/** The configured system prompt followed by the servers' instructions (when there are any). */
export function withInstructions(systemPrompt: string, section: string): string {
  if (!section) return systemPrompt;
  return systemPrompt.trim() ? `${systemPrompt.trimEnd()}\n\n${section}` : section;
}
