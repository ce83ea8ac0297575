// First: before the SDK builds any message schema (see zod-mode.ts).
import './zod-mode';
// The MCP side of aish-tui: one manager for every server (config, runtime, built-in).
export { createMcpManager, McpInputError, aliasFromUrl } from './manager';
export { mcpOptionsFromConfig, type McpManagerOptions, type McpLimits } from './options';
export { ARGUMENTS_INVALID, CANCELLED, DISPATCH_FAILED, TRANSPORT_ERROR } from './calls';
export type * from './types';
