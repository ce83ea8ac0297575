import type { ServerConfig, StdioServerConfig } from './schema';

// Checks of config values that code outside the config loader needs too. They live apart from
// schema.ts so that using them does not load the schema library (about 40 ms before the first
// frame); the schema uses them as well.

export function aliasProblem(alias: string): string | undefined {
  if (alias.length === 0) return 'an alias must not be empty';
  if (!/^[A-Za-z0-9_-]+$/.test(alias)) return `alias ${JSON.stringify(alias)} may only use letters, digits, "_" and "-"`;
  if (alias.includes('__')) return `alias ${JSON.stringify(alias)} must not contain "__" (it separates alias and tool)`;
  if (alias.startsWith('_') || alias.endsWith('_')) return `alias ${JSON.stringify(alias)} must not start or end with "_"`;
  if (alias.length > 32) return `alias ${JSON.stringify(alias)} is longer than 32 characters`;
  return undefined;
}

export function isStdioServer(server: ServerConfig): server is StdioServerConfig {
  return 'command' in server;
}
