// The approval policy (README.md, "Safety"; docs/ARCHITECTURE.md, Security invariants 3): decides whether a tool call runs without asking,
// is refused, or needs the user. Rules are kept as structured (alias, tool) pairs and matched
// against the pair the tool index resolved for the call, never against a string prefix of the
// wire name: a server aliased `fs` must not inherit the rules of `fs-remote`. What a server says
// about its own tools (annotations such as readOnlyHint, titles, descriptions) never decides
// anything here: only the user's rules do.
import { aliasProblem } from '../config/checks';
import type { ArgumentRuleConfig } from '../config/schema';
import type { McpToolInfo } from '../mcp/index';
import { describeFindings, type ArgumentGuard, type ArgumentMatcher, type GuardFinding } from './argument-guard';
import { heldBackAsNew, newToolVerdict } from './new-tools';
import { formatSavedRule, parseRuleLine, type RulesFileState, type RulesStore, type SavedScope } from './saved-rules';

/** A rule's target: one tool of one server, or every tool of one server (`tool === '*'`). */
export interface RuleTarget {
  alias: string;
  tool: string;
}

export type RuleOrigin = 'config' | 'command line' | 'session' | 'saved';

export interface PolicyRule extends RuleTarget {
  allow: boolean;
  /** Where the rule came from, as shown to the user: `config mcp.autoApprove "fs__*"`. */
  source: string;
  origin: RuleOrigin;
  /** Argument globs (mcp.argumentRules): the rule applies only to calls whose arguments match them all. */
  args?: Readonly<Record<string, string>>;
}

export type PolicyDecision =
  | { action: 'allow'; rule: string }
  /** `headless`: no rule allowed the call and headless mode never asks. */
  | { action: 'deny'; rule: string; headless?: boolean; warnings?: GuardFinding[] }
  /**
   * Nothing decided: the front end asks (the TUI), or denies (headless). `warnings`: what the
   * argument guard found (an allow rule stood aside for them, or no rule applied), for the frame.
   */
  | { action: 'ask'; definitionChanged?: string; newTool?: string; warnings?: GuardFinding[] };

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
  /** `mcp.argumentRules`: rules narrowed by argument globs. */
  argumentRules?: readonly ArgumentRuleConfig[];
  /** The argument guard and the matcher of argument globs (tools/argument-guard.ts); none: arguments are not looked at. */
  guard?: { check: ArgumentGuard; matches: ArgumentMatcher; prepare?: () => void };
  /** Rules saved from the approval frame (tools/saved-rules.ts); none: nothing is saved. */
  saved?: RulesStore;
}

export type SaveRuleResult = { saved: string; file: string; scope: SavedScope; allow: boolean } | { problem: string };

export interface ApprovalPolicy {
  readonly headless: boolean;
  /** `args`: the call's parsed arguments, for argument rules and the argument guard. */
  decide(alias: string, tool: string, args?: Record<string, unknown>): PolicyDecision;
  /** "Always this tool" / "always this server" from the approval frame; lasts for the session. */
  addSessionRule(scope: 'tool' | 'server', alias: string, tool: string): string;
  /** Session rules as `alias__tool` / `alias__*`, in the order they were added. */
  sessionRules(): string[];
  /** Every rule in force, config and command line first, then the session's, in order. */
  rules(): PolicyRule[];
  /** The user allowed this call in the approval frame (once or always), having seen `shown`. */
  recordUserApproval(alias: string, tool: string, shown?: McpToolInfo): void;
  /** Plugs in (or replaces) the pinned-definition check. */
  setDefinitions(definitions: DefinitionPins | undefined): void;
  /** Saves a rule typed in the frame's rule line (`allow project fs__read_file path=~/src/**`); it applies at once. */
  saveRule(line: string): SaveRuleResult;
  /** The saved rule files as read (project, then all projects), for `:permissions`. */
  savedFiles(): RulesFileState[];
  /** Deletes saved rule `number` (1-based, in `savedFiles` order); returns what was deleted or a problem. */
  deleteSavedRule(number: number): { deleted: string } | { problem: string };
  /** Gets ready to decide calls (builds the argument guard) ahead of the first one; decides nothing. */
  prepare(): void;
}

export const HEADLESS_NO_RULE = 'headless mode: no rule allows this tool';
export const CHANGED_IN_HEADLESS = 'its definition changed since it was first seen or last approved';
export const GUARDED_IN_HEADLESS = 'its arguments need a look';
export const GUARD_HEADLESS_HINT = 'a rule in mcp.argumentRules naming that argument allows it';

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

/** How specific an allow rule is, for the one reported: argument rule > one tool > every tool. */
function specificity(rule: PolicyRule): number {
  return (rule.args ? 2 : 0) + (rule.tool === '*' ? 0 : 1);
}

/** Builds the policy; throws an Error naming the bad pattern (callers turn it into a usage error). */
export function createApprovalPolicy(options: PolicyOptions = {}): ApprovalPolicy {
  const fixed: PolicyRule[] = [];
  for (const [pattern, allow] of Object.entries(options.autoApprove ?? {})) {
    const target = parseRulePattern(pattern);
    if (typeof target === 'string') throw new Error(`mcp.autoApprove: ${target}`);
    fixed.push({ ...target, allow, source: `config mcp.autoApprove ${pattern}`, origin: 'config' });
  }
  (options.argumentRules ?? []).forEach((rule, index) => {
    const target = parseRulePattern(rule.tool);
    if (typeof target === 'string') throw new Error(`mcp.argumentRules[${index}].tool: ${target}`);
    const args = Object.entries(rule.args).map(([name, glob]) => `${name}=${glob}`).join(' ');
    fixed.push({ ...target, allow: rule.allow, args: { ...rule.args }, source: `config mcp.argumentRules[${index}] ${rule.tool} ${args}`, origin: 'config' });
  });
  for (const pattern of options.allow ?? []) {
    const target = parseRulePattern(pattern);
    if (typeof target === 'string') throw new Error(`--auto-approve: ${target}`);
    fixed.push({ ...target, allow: true, source: `--auto-approve ${pattern}`, origin: 'command line' });
  }
  const session: PolicyRule[] = [];
  // Saved rules are read once at start and again after every change made here.
  let savedStates: RulesFileState[] = [];
  let saved: PolicyRule[] = [];
  const loadSaved = () => {
    savedStates = options.saved?.load() ?? [];
    saved = savedStates.flatMap((state) =>
      state.problem
        ? []
        : state.rules.flatMap((rule): PolicyRule[] => {
            const target = parseRulePattern(rule.tool);
            if (typeof target === 'string') return [];
            const where = state.scope === 'project' ? 'this project' : 'all projects';
            return [{ ...target, allow: rule.allow, ...(rule.args ? { args: { ...rule.args } } : {}), source: `saved rule (${where}) ${formatSavedRule(rule)}`, origin: 'saved' }];
          }),
    );
  };
  loadSaved();
  let definitions = options.definitions;
  const headless = options.headless ?? false;

  return {
    headless,
    decide(alias, tool, args) {
      const guard = options.guard;
      // An argument rule applies only when every argument it names matches its glob.
      const argsMatch = (rule: PolicyRule) => !rule.args || (args !== undefined && guard !== undefined && Object.entries(rule.args).every(([name, glob]) => Object.hasOwn(args, name) && guard.matches(glob, args[name])));
      const all = [...fixed, ...saved, ...session].filter((rule) => matches(rule, alias, tool) && argsMatch(rule));
      // Deny wins over any allow, whatever its source or order.
      const deny = all.find((rule) => !rule.allow);
      if (deny) return { action: 'deny', rule: deny.source };
      // The most specific rule is reported: it says most about why the call runs.
      const allows = all.filter((rule) => rule.allow);
      const allow = allows.reduce<PolicyRule | undefined>((best, rule) => (!best || specificity(rule) > specificity(best) ? rule : best), undefined);
      if (headless && !allow) return { action: 'deny', rule: HEADLESS_NO_RULE, headless: true };
      // A finding in an argument that a matching argument rule names is what the rule was written
      // for; any other finding sends the call back to the user (docs/ARCHITECTURE.md, Security invariants 8).
      const covered = new Set(allows.flatMap((rule) => Object.keys(rule.args ?? {})));
      const warnings = args !== undefined && guard ? guard.check(args).filter((finding) => finding.argument === '' || !covered.has(finding.argument)) : [];
      // A definition that changed since it was pinned is not what the rules were written for.
      const changed = definitions?.changeOf(alias, tool);
      if (changed !== undefined) {
        return headless
          ? { action: 'deny', rule: `${CHANGED_IN_HEADLESS} (${changed}); allow it once in aish-tui or pass --accept-changed-tools`, headless: true }
          : { action: 'ask', definitionChanged: changed, ...(warnings.length > 0 ? { warnings } : {}) };
      }
      if (warnings.length > 0) {
        if (headless) return { action: 'deny', rule: `${GUARDED_IN_HEADLESS}: ${describeFindings(warnings).join('; ')}; ${GUARD_HEADLESS_HINT}`, headless: true, warnings };
        const newTool = heldBackAsNew(allow, definitions, alias, tool);
        return { action: 'ask', warnings, ...(newTool !== undefined ? { newTool } : {}) };
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
        session.push({ ...target, allow: true, source: `session rule ${name}`, origin: 'session' });
      }
      return name;
    },
    sessionRules: () => session.map(formatRule),
    rules: () => [...fixed, ...saved, ...session].map((rule) => ({ ...rule })),
    saveRule(line) {
      if (!options.saved) return { problem: 'rules cannot be saved here' };
      const parsed = parseRuleLine(line);
      if (typeof parsed === 'string') return { problem: parsed };
      try {
        const file = options.saved.add(parsed.scope, parsed.rule);
        loadSaved();
        return { saved: formatSavedRule(parsed.rule), file, scope: parsed.scope, allow: parsed.rule.allow };
      } catch (error) {
        return { problem: `cannot save the rule: ${(error as Error).message}` };
      }
    },
    savedFiles: () => savedStates.map((state) => ({ ...state, rules: [...state.rules] })),
    deleteSavedRule(number) {
      if (!options.saved) return { problem: 'no saved rules here' };
      loadSaved();
      let left = number - 1;
      for (const state of savedStates) {
        if (left < state.rules.length) {
          try {
            const removed = options.saved.remove(state.scope, left);
            loadSaved();
            return typeof removed === 'string' ? { problem: removed } : { deleted: `${removed.allow ? 'allow' : 'deny'} ${formatSavedRule(removed)}` };
          } catch (error) {
            return { problem: `cannot delete the rule: ${(error as Error).message}` };
          }
        }
        left -= state.rules.length;
      }
      return { problem: `no saved rule ${number} (see :permissions for the numbers)` };
    },
    recordUserApproval(alias, tool, shown) {
      definitions?.accept(alias, tool, shown);
    },
    setDefinitions(next) {
      definitions = next;
    },
    prepare() {
      options.guard?.prepare?.();
    },
  };
}
