// The MCP side of aish-tui: one manager for every server (config, runtime, built-in).
export { createMcpManager, McpInputError, aliasFromUrl } from './manager';
export { mcpOptionsFromConfig, type McpManagerOptions, type McpLimits } from './options';
export { ARGUMENTS_INVALID, CANCELLED, DISPATCH_FAILED, TRANSPORT_ERROR } from './calls';
export type * from './types';
