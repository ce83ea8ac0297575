// A tool nobody approved before never runs under a server-wide rule (docs/ARCHITECTURE.md,
// Security invariants 9). `alias__*` in the config, `--auto-approve alias__*` or "always this
// server" in the frame were given for the tools the user had seen; a server that adds a tool later
// (mid-session through list_changed, or between runs) must not have it run unseen. Its first call
// asks once, the frame saying it is new; after one approval (kept in the pins file) the rules
// apply. A rule naming the tool itself (`alias__tool`, "always this tool") is not held back: the
// user named it. Deny rules are not affected.
import type { DefinitionPins, PolicyDecision, PolicyRule } from './policy';

export const NEW_IN_HEADLESS = 'it was never approved before and only a server-wide rule allows it';

/**
 * The source of the server-wide rule that would allow this call but does not apply yet because
 * the tool was never approved, or undefined when nothing is held back.
 */
export function heldBackAsNew(allow: PolicyRule | undefined, definitions: DefinitionPins | undefined, alias: string, tool: string): string | undefined {
  if (!allow || allow.tool !== '*') return undefined;
  return definitions?.isNew?.(alias, tool) ? allow.source : undefined;
}

/** Asks (the TUI) or denies (headless) a call a server-wide rule would allow for a tool never approved. */
export function newToolVerdict(allow: PolicyRule | undefined, definitions: DefinitionPins | undefined, alias: string, tool: string, headless: boolean): PolicyDecision | undefined {
  const rule = heldBackAsNew(allow, definitions, alias, tool);
  if (rule === undefined) return undefined;
  if (!headless) return { action: 'ask', newTool: rule };
  return { action: 'deny', rule: `${NEW_IN_HEADLESS} (${rule}); allow it once in aish-tui, name it with --auto-approve ${alias}__${tool}, or pass --accept-new-tools`, headless: true };
}
