// First: before the SDK builds any message schema (see zod-mode.ts).
import './zod-mode';

// The MCP client itself: the SDK, its transports and the built-in server, most of the app's code.
// Only ever loaded with `await import('…/services/mcp/client')`, when a front end first needs a
// server: never ahead of the first frame.
export { createMcpManager } from './manager';
export { mcpOptionsFromConfig } from './options';
export { openInBrowser } from './options';
