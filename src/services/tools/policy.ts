// The approval policy (README.md, "Safety"; docs/ARCHITECTURE.md, Security invariants 3): decides whether a tool call runs without asking,
// is refused, or needs the user. Rules are kept as structured (alias, tool) pairs and matched
// against the pair the tool index resolved for the call, never against a string prefix of the
// wire name: a server aliased `fs` must not inherit the rules of `fs-remote`. What a server says
// about its own tools (annotations such as readOnlyHint, titles, descriptions) never decides
// anything here: only the user's rules do.
import { aliasProblem } from '../config/schema';
import type { McpToolInfo } from '../mcp/index';
import { newToolVerdict } from './new-tools';

/** A rule's target: one tool of one server, or every tool of one server (`tool === '*'`). */
export interface RuleTarget {
  alias: string;
  tool: string;
}

export interface PolicyRule extends RuleTarget {
  allow: boolean;
  /** Where the rule came from, as shown to the user: `config mcp.autoApprove "fs__*"`. */
  source: string;
}

export type PolicyDecision =
  | { action: 'allow'; rule: string }
  /** `headless`: no rule allowed the call and headless mode never asks. */
  | { action: 'deny'; rule: string; headless?: boolean }
  /** Nothing decided: the front end asks (the TUI), or denies (headless). */
  | { action: 'ask'; definitionChanged?: string; newTool?: string };

/**
 * The hook for pinned tool definitions (docs/ARCHITECTURE.md, Security invariants 4): returns what changed when the tool's
 * definition differs from the one seen when it was first approved, else undefined. A changed
 * definition loses every "allow" rule (config and session) and is asked again; deny rules still apply.
 */
export type DefinitionCheck = (alias: string, tool: string) => string | undefined;

/** Pinned definitions as the policy sees them (see tools/pins.ts): what changed, and "the user approved this one". */
export interface DefinitionPins {
  changeOf: DefinitionCheck;
  /** Called when the user approves a call: the definition it was shown (`shown`) becomes the pinned one. */
  accept(alias: string, tool: string, shown?: McpToolInfo): void;
  /** True for a tool never approved before: server-wide rules do not run it yet (tools/new-tools.ts). */
  isNew?(alias: string, tool: string): boolean;
}

export interface PolicyOptions {
  /** `mcp.autoApprove` from the config: `alias__tool` or `alias__*` -> true (allow) / false (deny). */
  autoApprove?: Record<string, boolean>;
  /** `--auto-approve PATTERN` (headless): extra allow rules. */
  allow?: string[];
  /** Headless mode never asks: what no rule allows is denied. */
  headless?: boolean;
  definitions?: DefinitionPins;
}

export interface ApprovalPolicy {
  readonly headless: boolean;
  decide(alias: string, tool: string): PolicyDecision;
  /** "Always this tool" / "always this server" from the approval frame; lasts for the session. */
  addSessionRule(scope: 'tool' | 'server', alias: string, tool: string): string;
  /** Session rules as `alias__tool` / `alias__*`, in the order they were added. */
  sessionRules(): string[];
  /** The user allowed this call in the approval frame (once or always), having seen `shown`. */
  recordUserApproval(alias: string, tool: string, shown?: McpToolInfo): void;
  /** Plugs in (or replaces) the pinned-definition check. */
  setDefinitions(definitions: DefinitionPins | undefined): void;
}

export const HEADLESS_NO_RULE = 'headless mode: no rule allows this tool';
export const CHANGED_IN_HEADLESS = 'its definition changed since it was first seen or last approved';

/** Splits `alias__tool` / `alias__*` at the leftmost `__`; returns a problem string when malformed. */
export function parseRulePattern(pattern: string): RuleTarget | string {
  const split = pattern.indexOf('__');
  if (split <= 0 || split + 2 >= pattern.length) return `expected "alias__tool" or "alias__*", got ${JSON.stringify(pattern)}`;
  const alias = pattern.slice(0, split);
  const tool = pattern.slice(split + 2);
  const problem = aliasProblem(alias);
  if (problem) return problem;
  if (tool.includes('*') && tool !== '*') return `only "alias__*" globs are allowed, got ${JSON.stringify(pattern)}`;
  return { alias, tool };
}

export function formatRule(target: RuleTarget): string {
  return `${target.alias}__${target.tool}`;
}

function matches(rule: RuleTarget, alias: string, tool: string): boolean {
  return rule.alias === alias && (rule.tool === '*' || rule.tool === tool);
}

/** Builds the policy; throws an Error naming the bad pattern (callers turn it into a usage error). */
export function createApprovalPolicy(options: PolicyOptions = {}): ApprovalPolicy {
  const fixed: PolicyRule[] = [];
  for (const [pattern, allow] of Object.entries(options.autoApprove ?? {})) {
    const target = parseRulePattern(pattern);
    if (typeof target === 'string') throw new Error(`mcp.autoApprove: ${target}`);
    fixed.push({ ...target, allow, source: `config mcp.autoApprove ${pattern}` });
  }
  for (const pattern of options.allow ?? []) {
    const target = parseRulePattern(pattern);
    if (typeof target === 'string') throw new Error(`--auto-approve: ${target}`);
    fixed.push({ ...target, allow: true, source: `--auto-approve ${pattern}` });
  }
  const session: PolicyRule[] = [];
  let definitions = options.definitions;
  const headless = options.headless ?? false;

  return {
    headless,
    decide(alias, tool) {
      const all = [...fixed, ...session].filter((rule) => matches(rule, alias, tool));
      // Deny wins over any allow, whatever its source or order.
      const deny = all.find((rule) => !rule.allow);
      if (deny) return { action: 'deny', rule: deny.source };
      // An exact tool rule is reported in preference to a server glob: it says more.
      const allow = all.find((rule) => rule.tool === tool) ?? all[0];
      if (headless && !allow) return { action: 'deny', rule: HEADLESS_NO_RULE, headless: true };
      // A definition that changed since it was pinned is not what the rules were written for.
      const changed = definitions?.changeOf(alias, tool);
      if (changed !== undefined) {
        return headless ? { action: 'deny', rule: `${CHANGED_IN_HEADLESS} (${changed}); allow it once in aish-tui or pass --accept-changed-tools`, headless: true } : { action: 'ask', definitionChanged: changed };
      }
      const unseen = newToolVerdict(allow, definitions, alias, tool, headless);
      if (unseen) return unseen;
      if (allow) return { action: 'allow', rule: allow.source };
      return { action: 'ask' };
    },
    addSessionRule(scope, alias, tool) {
      const target = { alias, tool: scope === 'server' ? '*' : tool };
      const name = formatRule(target);
      if (!session.some((rule) => rule.alias === target.alias && rule.tool === target.tool)) {
        session.push({ ...target, allow: true, source: `session rule ${name}` });
      }
      return name;
    },
    sessionRules: () => session.map(formatRule),
    recordUserApproval(alias, tool, shown) {
      definitions?.accept(alias, tool, shown);
    },
    setDefinitions(next) {
      definitions = next;
    },
  };
}
