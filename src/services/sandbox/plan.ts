// From the config's sandbox settings to one confined run (which paths are writable, which are
// hidden) and the one line the command frame and the sidebar show ("sandboxed: …").
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { aishPaths, displayPath } from '../config/paths';
import type { SandboxPlan, SandboxSettings } from './types';

/**
 * Home secrets hidden from every sandboxed process: keys and cloud or registry credentials. The
 * rest of the home stays readable (programs need their dotfiles); README.md, "Sandbox", says so.
 */
export const HOME_SECRETS = ['.ssh', '.aws', '.gnupg', '.azure', '.kube', '.docker', '.config/gcloud', '.config/gh', '.netrc', '.git-credentials', '.npmrc', '.pypirc'];

/**
 * Sockets outside the home that hand out the user's (or root's) rights to whoever connects: the
 * per-user runtime dir (D-Bus session bus, keyring, ssh agent) and the container engines.
 * A read-only bind does not stop `connect()` on a Unix socket, so they are covered too.
 */
const SYSTEM_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman', '/run/containerd'];

/** `true | { writable, network, hide }` from the config, defaults filled in; undefined when off. */
export function sandboxSettings(value: boolean | Partial<SandboxSettings> | undefined): SandboxSettings | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { writable: [], network: false, hide: [], readable: [] };
  return { writable: value.writable ?? [], network: value.network ?? false, hide: value.hide ?? [], readable: value.readable ?? [] };
}

function expand(entry: string, home: string, base: string): string {
  if (entry === '~') return home;
  if (entry.startsWith('~/')) return path.join(home, entry.slice(2));
  return path.resolve(base, entry);
}

/** Follows symlinks: a dangling one has nothing to hide (and bwrap could not mount over it). */
function exists(file: string): boolean {
  try {
    fs.statSync(file);
    return true;
  } catch {
    return false;
  }
}

export interface PlanContext {
  /** The directory the process works in: writable. */
  workspace: string;
  env: NodeJS.ProcessEnv;
}

export function planSandbox(settings: SandboxSettings, context: PlanContext): SandboxPlan {
  const home = context.env.HOME || os.homedir();
  const workspace = path.resolve(context.workspace);
  const own = aishPaths(context.env);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const candidates = [
    ...HOME_SECRETS.map((entry) => path.join(home, entry)),
    // aish-tui's own config (API keys) and state (sessions, OAuth tokens, saved approvals).
    own.configDir,
    own.stateDir,
    ...(uid !== undefined ? [`/run/user/${uid}`] : []),
    ...SYSTEM_SOCKETS,
    ...settings.hide.map((entry) => expand(entry, home, workspace)),
  ];
  // Only what exists can be covered: a mount point cannot be made inside the read-only system.
  const hidden = [...new Set(candidates.filter(exists))];
  const writable = [...new Set(settings.writable.map((entry) => expand(entry, home, workspace)))].filter((entry) => entry !== workspace && exists(entry));
  const readable = [...new Set(settings.readable.map((entry) => expand(entry, home, workspace)))].filter((entry) => entry !== workspace && exists(entry));
  return { workspace, writable, readable, network: settings.network, hidden, home };
}

/**
 * `sandboxed: writes ~/src/app and a private /tmp only · no network · …` for the command frame;
 * `sandboxed: no network · writes ~/src/app` for the sidebar's narrow column.
 */
export function describeSandbox(plan: SandboxPlan, length: 'full' | 'short' = 'full'): string {
  const env = { HOME: plan.home };
  const writes = [plan.workspace, ...plan.writable].map((entry) => displayPath(entry, env)).join(', ');
  if (length === 'short') return `sandboxed: ${plan.network ? 'network' : 'no network'} · writes ${writes}`;
  return `sandboxed: writes ${writes} and a private /tmp only · ${plan.network ? 'network allowed' : 'no network'} · ~/.ssh and other secrets hidden`;
}
