import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { projectDirs } from './project-docs';

// A project config (`.aish/config.{ts,js,json}`) comes with the directory: a cloned repository can
// carry one that starts MCP servers (programs on this computer), adds approval rules or, as .ts or
// .js, runs code when loaded. So it is read only once the user has said they trust that directory,
// and the trust is kept with a fingerprint of the file: a changed file is asked about again
// (README.md, "Project config").

const PROJECT_CONFIG_NAMES = ['config.ts', 'config.js', 'config.json'];
const TRUST_FILE = 'trusted-projects.json';

export interface ProjectConfigFile {
  /** The directory holding `.aish/`: what is trusted. */
  dir: string;
  file: string;
  /** sha256 of the file's bytes. */
  fingerprint: string;
}

export type TrustState = 'trusted' | 'changed' | 'unknown';

/** The nearest `.aish/config.*` from the working directory up to the repository root. */
export function findProjectConfig(cwd: string): ProjectConfigFile | undefined {
  for (const dir of projectDirs(cwd).reverse()) {
    for (const name of PROJECT_CONFIG_NAMES) {
      const file = path.join(dir, '.aish', name);
      if (!existsSync(file)) continue;
      return { dir, file, fingerprint: fingerprintOf(file) };
    }
  }
  return undefined;
}

export function fingerprintOf(file: string): string {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return '';
  }
}

type TrustRecord = Record<string, { file: string; fingerprint: string; at: string }>;

function readTrust(stateDir: string): TrustRecord {
  try {
    const value = JSON.parse(readFileSync(path.join(stateDir, TRUST_FILE), 'utf8')) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as TrustRecord) : {};
  } catch {
    return {};
  }
}

export function trustStateOf(stateDir: string, project: ProjectConfigFile): TrustState {
  const all = readTrust(stateDir);
  const record = Object.hasOwn(all, project.dir) ? all[project.dir] : undefined;
  if (!record) return 'unknown';
  return record.file === project.file && record.fingerprint === project.fingerprint && project.fingerprint !== '' ? 'trusted' : 'changed';
}

/** Remembers that the user trusts this directory with its config as it is now. */
export function rememberTrust(stateDir: string, project: ProjectConfigFile): void {
  const record = readTrust(stateDir);
  record[project.dir] = { file: project.file, fingerprint: project.fingerprint, at: new Date().toISOString() };
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const target = path.join(stateDir, TRUST_FILE);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, target);
}

/**
 * A project config merges over the user's: sections merge key by key, but one model or one server
 * is replaced whole (a project's `http` server must not inherit the user's `command`).
 */
export function mergeConfigs(user: unknown, project: unknown, at: readonly string[] = []): unknown {
  if (project === undefined) return user;
  if (!isPlainObject(user) || !isPlainObject(project) || replacedWhole(at)) return project;
  const merged: Record<string, unknown> = { ...user };
  for (const [key, value] of Object.entries(project)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    merged[key] = Object.hasOwn(user, key) ? mergeConfigs(user[key], value, [...at, key]) : value;
  }
  return merged;
}

const replacedWhole = (at: readonly string[]) => (at.length === 2 && at[0] === 'models') || (at.length === 3 && at[0] === 'mcp' && at[1] === 'servers');

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
