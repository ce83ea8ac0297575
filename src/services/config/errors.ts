import type { core } from 'zod';

/** A problem with the user's configuration or command line: reported in one line each, exit 2. */
export class ConfigError extends Error {
  readonly exitCode = 2;
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
    this.name = 'ConfigError';
  }
}

type Issue = core.$ZodIssue;

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

function issueText(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `missing, expected ${issue.expected}`;
      return `expected ${issue.expected}, got ${describeValue(issue.input)}`;
    case 'unrecognized_keys':
      return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
    case 'too_small':
      if (issue.origin === 'string') return 'must not be empty';
      return `must be at least ${String(issue.minimum)}, got ${describeValue(issue.input)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(issue.input)}`;
    default:
      return issue.message;
  }
}

/**
 * Flattens zod issues into `path: problem` lines. For a union (an MCP server is either `{url}` or
 * `{command}`) the branch that got furthest is reported, so the user reads about the shape they
 * meant instead of both.
 */
export function formatIssues(issues: readonly Issue[], basePath: PropertyKey[] = []): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = [...basePath, ...issue.path];
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const input = issue.input as Record<string, unknown> | undefined;
      const branches = issue.errors;
      let chosen = branches[0] ?? [];
      if (input && typeof input === 'object') {
        // A server with `command` is meant as stdio, anything else as HTTP.
        const preferStdio = 'command' in input;
        chosen = (preferStdio ? branches[1] : branches[0]) ?? chosen;
      }
      if (!input || typeof input !== 'object' || Array.isArray(input)) {
        lines.push(`${renderPath(path)}: expected an object with "url" or "command", got ${describeValue(input)}`);
        continue;
      }
      // The two shapes told apart by their keys: neither or both is a mistake of its own.
      if ('url' in input === 'command' in input) {
        lines.push(
          'url' in input
            ? `${renderPath(path)}: has both "url" (an HTTP server) and "command" (a stdio server); keep one`
            : `${renderPath(path)}: needs "url" (an HTTP server) or "command" (a stdio server)`,
        );
        continue;
      }
      lines.push(...formatIssues(chosen, path));
      continue;
    }
    if (issue.code === 'invalid_key') {
      // A record key (an MCP alias, an autoApprove rule) failed its own check.
      lines.push(...formatIssues(issue.issues, path));
      continue;
    }
    lines.push(`${renderPath(path)}: ${issueText(issue)}`);
  }
  return lines;
}

function renderPath(path: PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((part) => (/^[\w-]+$/.test(String(part)) ? String(part) : JSON.stringify(String(part)))).join('.');
}
