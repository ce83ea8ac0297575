// What the model reads when a tool call did not give a result (docs/ARCHITECTURE.md, Conversation rules). A module of its own, with
// no imports, so the conversation loop can use the same words without loading the MCP client.
export const DISPATCH_FAILED = '[aish] tool dispatch failed: ';
export const TRANSPORT_ERROR = '[aish] tool transport error: ';
export const ARGUMENTS_INVALID = '[aish] tool arguments invalid: ';
export const CANCELLED = '[aish] tool call cancelled by the user';
/** In front of the text of a result the server flagged with `isError`. */
export const TOOL_REPORTED_ERROR = '[aish] the tool reported an error: ';
