// `:permissions` (README.md, "Commands" and "Safety"): every approval rule in force, where it comes
// from and which of the current tools it matches, deny rules too, and what still asks whatever the
// rules say. Server-controlled text (tool names) is sanitized by the chat view like every status line.
import type { AppConfig } from '../services/config/load';
import { displayPath } from '../services/config/paths';
import type { ServerSnapshot } from '../services/mcp/index';
import { DEFAULT_SENSITIVE_PATHS } from '../services/tools/argument-guard';
import { formatRule, type PolicyRule, type RuleOrigin } from '../services/tools/policy';
import { formatSavedRule, type RulesFileState } from '../services/tools/saved-rules';

/** Tool names listed per rule before "+N more". */
const MAX_TOOLS_LISTED = 6;

const ORIGIN_ORDER: readonly RuleOrigin[] = ['config', 'command line', 'saved', 'session'];

const ORIGIN_TITLES: Record<RuleOrigin, string> = {
  config: 'From the config',
  'command line': 'From the command line (--auto-approve)',
  saved: 'Saved (r in a tool frame; :permissions delete N removes one)',
  session: 'This session (t / s in a tool frame)',
};

/** Which current tools a rule matches, as `alias__tool` names. */
export function toolsMatched(rule: Pick<PolicyRule, 'alias' | 'tool'>, servers: readonly ServerSnapshot[]): string[] | undefined {
  const server = servers.find((candidate) => candidate.alias === rule.alias);
  if (!server) return undefined;
  return server.tools.filter((tool) => rule.tool === '*' || tool.name === rule.tool).map((tool) => `${server.alias}__${tool.name}`);
}

function matchText(rule: PolicyRule, servers: readonly ServerSnapshot[]): string {
  const matched = toolsMatched(rule, servers);
  if (matched === undefined) return `nothing: no server "${rule.alias}" now`;
  const server = servers.find((candidate) => candidate.alias === rule.alias)!;
  if (matched.length === 0) return server.state === 'ready' ? 'no current tool' : `nothing yet: server ${server.state}`;
  const shown = matched.slice(0, MAX_TOOLS_LISTED).join(', ');
  const more = matched.length > MAX_TOOLS_LISTED ? ` +${matched.length - MAX_TOOLS_LISTED} more` : '';
  return `${matched.length === 1 ? '' : `${matched.length} tools: `}${shown}${more}`;
}

function ruleName(rule: PolicyRule): string {
  const args = rule.args ? ` ${Object.entries(rule.args).map(([name, glob]) => `${name}=${glob}`).join(' ')}` : '';
  return `${formatRule(rule)}${args}`;
}

/** Where in its origin the rule is written: the config key, the flag. */
function sourceDetail(rule: PolicyRule): string {
  if (rule.origin === 'config') return rule.args ? (/mcp\.argumentRules\[\d+\]/.exec(rule.source)?.[0] ?? 'mcp.argumentRules') : 'mcp.autoApprove';
  if (rule.origin === 'command line') return '--auto-approve';
  if (rule.origin === 'session') return rule.tool === '*' ? 's: every tool of the server' : 't: this tool';
  return rule.source;
}

/** The saved rule files, each rule numbered for `:permissions delete N`; a file not in force says why. */
function savedLines(files: readonly RulesFileState[], servers: readonly ServerSnapshot[], env: NodeJS.ProcessEnv): string[] {
  const lines: string[] = [];
  let number = 0;
  for (const file of files) {
    if (file.rules.length === 0 && !file.problem) continue;
    lines.push(`    ${file.scope === 'project' ? 'this project' : 'all projects'}: ${displayPath(file.file, env)}${file.problem ? ` — NOT IN FORCE: ${file.problem}` : ''}`);
    for (const rule of file.rules) {
      number += 1;
      const target = { alias: rule.tool.slice(0, rule.tool.indexOf('__')), tool: rule.tool.slice(rule.tool.indexOf('__') + 2) };
      const policyRule: PolicyRule = { ...target, allow: rule.allow, source: '', origin: 'saved' };
      lines.push(`    ${String(number).padStart(2)}. ${rule.allow ? 'allow' : 'deny '}  ${formatSavedRule(rule)}`, `           matches ${file.problem ? 'nothing (not in force)' : matchText(policyRule, servers)}`);
    }
  }
  return lines;
}

export function permissionLines(rules: readonly PolicyRule[], servers: readonly ServerSnapshot[], config: Pick<AppConfig, 'mcp' | 'paths' | 'sourcePath'>, env: NodeJS.ProcessEnv, savedFiles?: readonly RulesFileState[]): string[] {
  const lines = ['Rules in force (a deny wins over any allow; whatever no rule allows asks):'];
  if (rules.length === 0) lines.push('  none: every tool call asks');
  for (const origin of ORIGIN_ORDER) {
    const group = rules.filter((rule) => rule.origin === origin);
    if (origin === 'saved' && savedFiles) {
      const saved = savedLines(savedFiles, servers, env);
      lines.push(saved.length > 0 ? `  ${ORIGIN_TITLES.saved}:` : '  Saved: none (r in a tool frame saves a rule for this project or everywhere)', ...saved);
      continue;
    }
    if (group.length === 0) {
      if (origin === 'saved') lines.push('  Saved: none (r in a tool frame saves a rule for this project or everywhere)');
      continue;
    }
    lines.push(`  ${ORIGIN_TITLES[origin]}${origin === 'config' && config.sourcePath ? ` ${displayPath(config.sourcePath, env)}` : ''}:`);
    for (const rule of group) {
      // Two rows per rule: the rule and where it is written, then what it matches (narrow terminals wrap less).
      lines.push(`    ${rule.allow ? 'allow' : 'deny '}  ${ruleName(rule)}  (${sourceDetail(rule)})`, `           matches ${matchText(rule, servers)}`);
    }
  }
  const guard = config.mcp.argumentGuard;
  const pathCount = (guard.defaults ? DEFAULT_SENSITIVE_PATHS.length : 0) + guard.paths.length;
  lines.push(
    'Asks anyway (headless: denied) under an allow rule, unless an argument rule names that argument, a call whose arguments hold:',
    `  · a credential or key path (${pathCount} globs${guard.paths.length > 0 ? `, ${guard.paths.length} from mcp.argumentGuard.paths` : ''}${guard.defaults ? '' : ', built-in list off'})`,
    `  · aish-tui's own files (${displayPath(config.paths.configDir, env)}, ${displayPath(config.paths.stateDir, env)})`,
    '  · a private key or a token',
    '  · control or invisible characters',
    '  · a download-and-run or destructive command',
    'A tool whose definition changed since it was pinned asks again too.',
    'A tool never approved before asks once even under a server-wide allow rule (alias__*, "always this server"); after one approval the rule applies (headless: denied unless --accept-new-tools).',
  );
  return lines;
}
