// Rules the user saved from the approval frame (README.md, "Safety"): for this project
// (`<project>/.aish/rules.json`) or for all projects (`<configDir>/rules.json`), allow or deny,
// for one tool or every tool of a server, optionally narrowed by argument globs.
//
// The project file sits in the working tree, so it travels with a repository: a cloned project
// could carry a `.aish/rules.json` that allows everything. A project file therefore counts only
// when aish-tui wrote it on this machine: every write records the file's SHA-256 under its path
// in `<stateDir>/trusted-rules.json` (user state, 0600, outside any repository), and a project
// file whose content does not hash to the recorded value is ignored with a warning, its rules
// listed as "not trusted" by `:permissions`. A marker inside the file itself would not do: whoever
// wrote the file could write the marker too. The global file lives in the user's config dir, which
// is the user's own config like config.ts, and is trusted as it is.
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { aliasProblem } from '../config/checks';

export type SavedScope = 'project' | 'everywhere';

export interface SavedRule {
  allow: boolean;
  /** `alias__tool` or `alias__*`. */
  tool: string;
  /** Argument globs: the rule applies only to calls whose named arguments all match. */
  args?: Record<string, string>;
}

export interface RulesFileState {
  scope: SavedScope;
  file: string;
  rules: SavedRule[];
  /** Why the file's rules are not used (unreadable, malformed, a project file aish-tui did not write). */
  problem?: string;
  /** The file exists but aish-tui did not write it (or it changed since): its rules are shown, never used. */
  untrusted?: boolean;
}

export const PROJECT_RULES = path.join('.aish', 'rules.json');
export const GLOBAL_RULES = 'rules.json';
const TRUST_FILE = 'trusted-rules.json';

interface RulesFileShape {
  version: 1;
  rules: SavedRule[];
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** One rule read from a file, or why it is not one. */
function ruleProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'not an object';
  const rule = value as Record<string, unknown>;
  if (typeof rule.allow !== 'boolean') return '"allow" must be true or false';
  if (typeof rule.tool !== 'string') return '"tool" must be a string';
  const target = parseTarget(rule.tool);
  if (typeof target === 'string') return target;
  if (rule.args !== undefined) {
    if (rule.args === null || typeof rule.args !== 'object' || Array.isArray(rule.args)) return '"args" must map argument names to globs';
    for (const [name, glob] of Object.entries(rule.args)) if (!name || typeof glob !== 'string' || !glob) return `"args.${name}" must be a non-empty glob`;
  }
  return undefined;
}

function parseTarget(pattern: string): { alias: string; tool: string } | string {
  const split = pattern.indexOf('__');
  if (split <= 0 || split + 2 >= pattern.length) return `expected "alias__tool" or "alias__*", got ${JSON.stringify(pattern)}`;
  const alias = pattern.slice(0, split);
  const tool = pattern.slice(split + 2);
  const problem = aliasProblem(alias);
  if (problem) return problem;
  if (tool.includes('*') && tool !== '*') return `only "alias__*" globs are allowed, got ${JSON.stringify(pattern)}`;
  return { alias, tool };
}

function parseRulesFile(text: string): SavedRule[] | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  const rules = (value as Partial<RulesFileShape> | null)?.rules;
  if (!Array.isArray(rules)) return 'expected {"version": 1, "rules": [...]}';
  for (const [index, rule] of rules.entries()) {
    const problem = ruleProblem(rule);
    if (problem) return `rules[${index}]: ${problem}`;
  }
  return (rules as SavedRule[]).map((rule) => ({ allow: rule.allow, tool: rule.tool, ...(rule.args ? { args: { ...rule.args } } : {}) }));
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function writePrivate(file: string, text: string, dirMode: number): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: dirMode });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}

export interface RulesStoreOptions {
  /** The project's directory (the working directory): its `.aish/rules.json`. */
  projectDir: string;
  configDir: string;
  stateDir: string;
}

export interface RulesStore {
  /** Both files as read now (project first). */
  load(): RulesFileState[];
  /** Appends a rule to the scope's file (writing it as aish-tui's own); returns the file. */
  add(scope: SavedScope, rule: SavedRule): string;
  /** Removes the rule at `index` of the scope's file; returns it, or a problem. */
  remove(scope: SavedScope, index: number): SavedRule | string;
}

export function createRulesStore(options: RulesStoreOptions): RulesStore {
  const files: Record<SavedScope, string> = {
    project: path.join(options.projectDir, PROJECT_RULES),
    everywhere: path.join(options.configDir, GLOBAL_RULES),
  };
  const trustFile = path.join(options.stateDir, TRUST_FILE);
  const readTrust = (): Record<string, string> => {
    try {
      const value = JSON.parse(readText(trustFile) ?? '{}') as unknown;
      return value && typeof value === 'object' ? (value as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const loadOne = (scope: SavedScope): RulesFileState => {
    const file = files[scope];
    let text: string | undefined;
    try {
      text = readText(file);
    } catch (error) {
      return { scope, file, rules: [], problem: `cannot read it: ${(error as Error).message}` };
    }
    if (text === undefined) return { scope, file, rules: [] };
    const rules = parseRulesFile(text);
    if (typeof rules === 'string') return { scope, file, rules: [], problem: rules };
    if (scope === 'project' && readTrust()[path.resolve(file)] !== sha256(text)) {
      return { scope, file, rules, untrusted: true, problem: 'not written by aish-tui on this machine (or changed since): its rules are ignored; delete the file, or save the rules again from a tool frame' };
    }
    return { scope, file, rules };
  };
  const write = (scope: SavedScope, rules: SavedRule[]) => {
    const file = files[scope];
    const text = `${JSON.stringify({ version: 1, rules } satisfies RulesFileShape, null, 2)}\n`;
    writePrivate(file, text, scope === 'project' ? 0o755 : 0o700);
    if (scope === 'project') {
      const trust = readTrust();
      trust[path.resolve(file)] = sha256(text);
      writePrivate(trustFile, `${JSON.stringify(trust, null, 2)}\n`, 0o700);
    }
  };
  // Only rules in force are kept when writing: an untrusted file's rules never become trusted by
  // a save beside them.
  const current = (scope: SavedScope) => {
    const state = loadOne(scope);
    return state.problem ? [] : state.rules;
  };
  return {
    load: () => [loadOne('project'), loadOne('everywhere')],
    add(scope, rule) {
      const rules = current(scope);
      const same = (other: SavedRule) => other.tool === rule.tool && JSON.stringify(other.args ?? {}) === JSON.stringify(rule.args ?? {});
      write(scope, [...rules.filter((other) => !same(other)), rule]);
      return files[scope];
    },
    remove(scope, index) {
      const state = loadOne(scope);
      const rule = state.rules[index];
      if (!rule) return `no saved rule ${index + 1} in ${scope === 'project' ? 'this project' : 'the rules for all projects'}`;
      if (state.untrusted) {
        // Deleting from a file aish-tui did not write would bless the rest: refuse.
        return `${state.file} was not written by aish-tui here; delete or edit that file yourself`;
      }
      write(scope, state.rules.filter((_, at) => at !== index));
      return rule;
    },
  };
}

/**
 * The words of a rule line: split at whitespace, except inside quotes, so a glob with a space can
 * be written `path="~/My Documents/**"` (or with single quotes). Inside double quotes `\"` and
 * `\\` stand for a quote and a backslash. An unclosed quote is a problem, not a guess.
 */
export function ruleWords(line: string): string[] | string {
  const words: string[] = [];
  let word: string | undefined;
  let quote: '"' | "'" | undefined;
  let quoteStart = 0;
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (quote === '"' && char === '\\' && (line[index + 1] === '"' || line[index + 1] === '\\')) word = `${word ?? ''}${line[++index]!}`;
      else word = `${word ?? ''}${char}`;
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (char === '"' || char === "'") {
      quote = char;
      quoteStart = index;
      word ??= '';
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote) return `the quote at column ${quoteStart + 1} is not closed`;
  if (word !== undefined) words.push(word);
  return words;
}

/** `allow|deny project|everywhere alias__tool [name=glob …]`, as typed in the approval frame's rule line. */
export function parseRuleLine(line: string): { scope: SavedScope; rule: SavedRule } | string {
  const words = ruleWords(line);
  if (typeof words === 'string') return words;
  const [verb, where, tool, ...rest] = words;
  if (verb !== 'allow' && verb !== 'deny') return 'start with allow or deny';
  if (where !== 'project' && where !== 'everywhere') return 'then project or everywhere';
  if (!tool) return 'then the tool: alias__tool or alias__*';
  const target = parseTarget(tool);
  if (typeof target === 'string') return target;
  const args: Record<string, string> = {};
  for (const word of rest) {
    const equals = word.indexOf('=');
    if (equals <= 0 || equals === word.length - 1) return `narrow by argument as name=glob, got ${JSON.stringify(word)}`;
    args[word.slice(0, equals)] = word.slice(equals + 1);
  }
  return { scope: where, rule: { allow: verb === 'allow', tool, ...(Object.keys(args).length > 0 ? { args } : {}) } };
}

/** A glob as a rule line writes it: quoted when it holds whitespace or a quote, so the line reads back the same. */
function ruleValue(glob: string): string {
  return /[\s"']/.test(glob) ? `"${glob.replace(/[\\"]/g, (char) => `\\${char}`)}"` : glob;
}

export function formatSavedRule(rule: SavedRule): string {
  const args = rule.args ? ` ${Object.entries(rule.args).map(([name, glob]) => `${name}=${ruleValue(glob)}`).join(' ')}` : '';
  return `${rule.tool}${args}`;
}
