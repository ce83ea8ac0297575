// How a tool call is decided, for every front end: the approval policy (config rules, session
// rules, headless rules) plugged into the pinned tool definitions that follow the live servers.
// The TUI asks the user for what no rule decides; `-p` never asks (what no rule allows is denied,
// and a changed definition is denied unless --accept-changed-tools re-pins it). Both are wired
// here so that a change to how calls are decided is made once.
import type { AppConfig } from '../services/config/load';
import { sanitizeName } from '../services/terminal/look-alike';
import { appearedNotice, changeNotice, createFilePinStore, pinsFile, trackDefinitions, type PinnedServers, type PinStore } from '../services/tools/pins';
import { createApprovalPolicy, type ApprovalPolicy, type DefinitionPins } from '../services/tools/policy';

export type Report = (level: 'info' | 'warn' | 'error', text: string) => void;

/** `-p`: nobody to ask. */
export interface HeadlessRules {
  /** `--auto-approve PATTERN`: extra allow rules. */
  allow: string[];
  /** `--accept-changed-tools`: a changed definition becomes the pin when a call is decided. */
  acceptChangedTools: boolean;
  /** `--accept-new-tools`: a tool never approved before counts as approved when a call is decided. */
  acceptNewTools?: boolean;
}

export interface ToolPolicyOptions {
  headless?: HeadlessRules;
  /** Pinned definitions as the policy sees them (tests); default: the pin store tracking the servers. */
  definitions?: DefinitionPins;
  /** The pin store to track the servers with; default `<stateDir>/pins.json`. */
  pins?: PinStore;
  /** Pins that cannot be saved, changed definitions (TUI), accepted changes (headless). */
  report: Report;
}

export interface ToolPolicy {
  policy: ApprovalPolicy;
  /** Stops following the servers' tool lists. */
  stop(): void;
}

/** Throws (with the pattern in the message) when a rule pattern is malformed. */
export function createToolPolicy(config: Pick<AppConfig, 'mcp' | 'paths'>, servers: PinnedServers, options: ToolPolicyOptions): ToolPolicy {
  const { headless, report } = options;
  // First, so that a malformed pattern stops the run before anything follows the servers.
  const policy = createApprovalPolicy({ autoApprove: config.mcp.autoApprove, ...(headless ? { allow: headless.allow, headless: true } : {}) });
  if (options.definitions) {
    policy.setDefinitions(options.definitions);
    return { policy, stop: () => {} };
  }
  // Every tool list a server reports is pinned on first sight and compared with its pin after.
  const store = options.pins ?? createFilePinStore(pinsFile(config.paths.stateDir), (message) => report('warn', message));
  // Tools never seen before are named when they appear (start-up, list_changed, a later run).
  const onAppeared = (alias: string, tools: string[]) => report('warn', appearedNotice(alias, tools));
  const tracking = trackDefinitions(
    store,
    servers,
    headless
      ? {
          onAppeared,
          acceptChanges: headless.acceptChangedTools,
          onAccepted: (alias, tool, change) => report('warn', `${alias}__${tool}: ${change} since it was first seen; accepted (--accept-changed-tools)`),
          acceptNew: headless.acceptNewTools ?? false,
          onAcceptedNew: (alias, tool) => report('warn', `${sanitizeName(`${alias}__${tool}`)}: never approved before; accepted (--accept-new-tools)`),
        }
      : { onAppeared, onChange: (alias, tool, change) => report('warn', changeNotice(alias, tool, change)) },
  );
  policy.setDefinitions(tracking.definitions);
  return { policy, stop: tracking.stop };
}
