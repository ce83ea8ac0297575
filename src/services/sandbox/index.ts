// The sandbox for shell commands and stdio MCP servers: bubblewrap, used directly
// (docs/ARCHITECTURE.md, "Sandbox", says why not a package).
export type { SandboxAvailability, SandboxPlan, SandboxSettings } from './types';
export { describeSandbox, planSandbox, sandboxSettings, HOME_SECRETS } from './plan';
export { bwrapArgs, wrapCommand } from './bwrap';
export { checkSandbox, findBwrap, INSTALL_HINT } from './availability';
export { sandboxLabel } from './label';
export { prepareSandbox, type PreparedSandbox } from './prepare';
