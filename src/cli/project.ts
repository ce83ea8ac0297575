// The working directory's project: its config (used once trusted) and its AGENTS.md files (README.md,
// "Project context"). Decided before the screen switches, so the trust question is a plain one on the
// terminal and the answer is known before any server starts.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { AppConfig } from '../services/config/load';
import type { ImportNotice } from '../services/config/mcp-import';
import { displayPath } from '../services/config/paths';
import { loadProjectDocs, withProjectDocs } from '../services/config/project-docs';
import { findProjectConfig, rememberTrust, trustStateOf, type ProjectConfigFile } from '../services/config/project-trust';
import { sanitizeLabel } from '../services/terminal/sanitize';

export interface ProjectChoice {
  /** The project config to merge over the user's, when it may be used. */
  projectFile?: string;
  notices: ImportNotice[];
}

export interface ProjectOptions {
  cwd: string;
  stateDir: string;
  env: NodeJS.ProcessEnv;
  /** A person at a terminal can be asked (the full-screen UI); otherwise only remembered trust counts. */
  interactive: boolean;
  /** `--trust-project`: use it this time without asking. */
  trustFlag: boolean;
  stderr: (text: string) => void;
  /** Asks the question; resolves true for yes (tests supply their own). */
  ask?: (question: string) => Promise<boolean>;
}

export async function chooseProjectConfig(options: ProjectOptions): Promise<ProjectChoice> {
  const project = findProjectConfig(options.cwd);
  if (!project) return { notices: [] };
  const shown = sanitizeLabel(displayPath(project.file, options.env));
  const state = trustStateOf(options.stateDir, project);
  if (state === 'trusted') return { projectFile: project.file, notices: [{ level: 'info', text: `project config ${shown} is in use (trusted directory)` }] };
  if (options.trustFlag) return { projectFile: project.file, notices: [{ level: 'info', text: `project config ${shown} is in use (--trust-project)` }] };
  const why = state === 'changed' ? 'it changed since you trusted this directory' : 'this directory is not trusted yet';
  if (!options.interactive) {
    options.stderr(`aish-tui: project config ${shown} not used: ${why} (start aish-tui here to answer, or pass --trust-project)\n`);
    return { notices: [] };
  }
  const ask = options.ask ?? askOnTerminal;
  if (await ask(trustQuestion(project, state === 'changed', options.env))) {
    rememberTrust(options.stateDir, project);
    return { projectFile: project.file, notices: [{ level: 'info', text: `project config ${shown} is in use; this directory is trusted from now on (until the file changes)` }] };
  }
  return { notices: [{ level: 'warn', text: `project config ${shown} not used: you did not trust this directory (asked again next time)` }] };
}

export function trustQuestion(project: ProjectConfigFile, changed: boolean, env: NodeJS.ProcessEnv): string {
  const dir = sanitizeLabel(displayPath(project.dir, env));
  const file = sanitizeLabel(displayPath(project.file, env));
  return [
    changed ? `The project config ${file} changed since you trusted ${dir}.` : `${dir} has a project config: ${file}`,
    'It is merged over your own config and can start MCP servers (programs on this computer),',
    'change models and approval rules, and, as a .ts or .js file, runs code when it is loaded.',
    ...declaredServers(project.file),
    `Trust ${dir} and use it? [y/N] `,
  ].join('\n');
}

/** What a JSON project config would start, read without running anything (a .ts or .js file is not run to ask). */
function declaredServers(file: string): string[] {
  if (!file.endsWith('.json')) return [];
  let servers: unknown;
  try {
    servers = (JSON.parse(readFileSync(file, 'utf8')) as { mcp?: { servers?: unknown } })?.mcp?.servers;
  } catch {
    return [];
  }
  if (!servers || typeof servers !== 'object') return [];
  const lines = Object.entries(servers as Record<string, { command?: unknown; args?: unknown; url?: unknown }>).map(([alias, server]) => {
    const command = typeof server?.command === 'string' ? [server.command, ...(Array.isArray(server.args) ? server.args.map(String) : [])].join(' ') : undefined;
    const what = command !== undefined ? `runs ${command}` : typeof server?.url === 'string' ? `connects to ${server.url}` : '';
    return `  ${sanitizeLabel(alias)}: ${sanitizeLabel(what).slice(0, 160)}`;
  });
  if (lines.length === 0) return [];
  const shown = lines.slice(0, 10);
  return ['Its MCP servers:', ...shown, ...(lines.length > shown.length ? [`  and ${lines.length - shown.length} more`] : [])];
}

/** A plain yes/no on the terminal, before the full screen; Ctrl+C quits. */
function askOnTerminal(question: string): Promise<boolean> {
  return new Promise((resolve) => {
    const reader = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    let answered = false;
    const finish = (yes: boolean) => {
      if (answered) return;
      answered = true;
      reader.close();
      resolve(yes);
    };
    reader.on('SIGINT', () => {
      reader.close();
      process.stdout.write('\n');
      process.exit(130);
    });
    reader.on('close', () => finish(false));
    reader.question(question, (answer) => finish(/^\s*y(es)?\s*$/i.test(answer)));
  });
}

/** Adds the AGENTS.md files to the system prompt (and notes them for `:context`). */
export function applyProjectDocs(config: AppConfig, cwd: string): void {
  if (!config.context.projectDocs) return;
  const { docs, section } = loadProjectDocs(cwd, config.context.maxProjectDocChars);
  if (docs.length === 0) return;
  config.systemPrompt = withProjectDocs(config.systemPrompt, section);
  config.projectDocs = docs;
}
