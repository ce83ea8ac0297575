// Which servers' `instructions` go into the system prompt (README.md, "Server instructions"): every
// ready server's, unless its config says `instructions: false`, or they changed since they were
// first seen (pinned like a tool definition) and were not accepted yet. A change is said once as a
// warning; `:mcp instructions <alias> accept` (or `-p --accept-changed-tools`) makes them the pin.
import type { AppConfig } from '../services/config/load';
import { instructionsSection, type McpEvent, type ServerSnapshot } from '../services/mcp/index';
import { acceptInstructions, instructionsChanged } from '../services/tools/instruction-pins';
import type { PinStore } from '../services/tools/pins';

export type InstructionState = 'sent' | 'off' | 'changed';

export interface InstructionGateOptions {
  report: (level: 'info' | 'warn' | 'error', text: string) => void;
  /** `-p --accept-changed-tools`: changed instructions become the pin (and are sent), with a note. */
  acceptChanges?: boolean;
  /** Told whenever a server's state changes (the sidebar's details show it). */
  onState?: (alias: string, state: InstructionState | undefined) => void;
}

export interface InstructionGate {
  /** The system prompt's section with the instructions that may be sent. */
  section(servers: readonly ServerSnapshot[]): string;
  stateOf(alias: string): InstructionState | undefined;
  /** Accepts the server's current instructions; false when it has none. */
  accept(alias: string): boolean;
  stop(): void;
}

export function createInstructionGate(
  config: Pick<AppConfig, 'mcp'>,
  mcp: { servers(): ServerSnapshot[]; subscribe(listener: (event: McpEvent) => void): () => void },
  pins: PinStore,
  options: InstructionGateOptions,
): InstructionGate {
  const states = new Map<string, InstructionState>();
  const seen = new Map<string, string>();
  const set = (alias: string, state: InstructionState | undefined) => {
    if (states.get(alias) === state) return;
    if (state) states.set(alias, state);
    else states.delete(alias);
    options.onState?.(alias, state);
  };
  const observe = (snapshot: ServerSnapshot) => {
    if (snapshot.state !== 'ready') return;
    const text = snapshot.instructions?.trim();
    if (!text) return set(snapshot.alias, undefined);
    if (seen.get(snapshot.alias) === text) return;
    seen.set(snapshot.alias, text);
    if (config.mcp.servers[snapshot.alias]?.instructions === false) return set(snapshot.alias, 'off');
    if (!instructionsChanged(pins, snapshot.alias, text)) return set(snapshot.alias, 'sent');
    if (options.acceptChanges) {
      acceptInstructions(pins, snapshot.alias, text);
      options.report('warn', `mcp ${snapshot.alias}: its instructions changed since they were first seen; accepted (--accept-changed-tools)`);
      return set(snapshot.alias, 'sent');
    }
    options.report('warn', `mcp ${snapshot.alias}: its instructions changed since they were first seen; they are not sent to the model until you accept them (:mcp instructions ${snapshot.alias} accept)`);
    set(snapshot.alias, 'changed');
  };
  for (const snapshot of mcp.servers()) observe(snapshot);
  const stop = mcp.subscribe((event) => {
    if (event.type === 'server') observe(event.snapshot);
  });
  return {
    section: (servers) => instructionsSection(servers, (alias) => states.get(alias) === 'sent', config.mcp.maxInstructionsChars),
    stateOf: (alias) => states.get(alias),
    accept(alias) {
      const text = mcp.servers().find((server) => server.alias === alias)?.instructions?.trim();
      if (!text) return false;
      acceptInstructions(pins, alias, text);
      if (states.get(alias) === 'changed') set(alias, 'sent');
      return true;
    },
    stop,
  };
}
