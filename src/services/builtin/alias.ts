// The built-in server's names, apart from the server itself, so that code on the way to the first
// frame can name it without loading the MCP server SDK.

export const BUILTIN_ALIAS = 'builtin';
export const BUILTIN_TARGET = 'built-in';
