// The bubblewrap command line for one plan. Order matters: later mounts cover earlier ones, so
// the hidden secrets come after the writable binds (a workspace that is the home stays
// writable, its ~/.ssh still hidden).
import fs from 'node:fs';
import type { SandboxPlan } from './types';

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false;
  }
}

export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [
    // Own user, process, IPC and host-name namespaces; no capabilities inside even when started
    // as root, so nothing in the sandbox can unmount what covers the secrets.
    '--unshare-user',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    '--unshare-cgroup-try',
    ...(plan.network ? [] : ['--unshare-net']),
    '--cap-drop',
    'ALL',
    // Ends with us; its own session, so it cannot push keys into our terminal (TIOCSTI).
    '--die-with-parent',
    '--new-session',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--bind',
    plan.workspace,
    plan.workspace,
  ];
  for (const entry of plan.writable) args.push('--bind', entry, entry);
  // Over the private /tmp, before the secrets are covered: a secret inside one stays hidden.
  for (const entry of plan.readable) args.push('--ro-bind', entry, entry);
  for (const entry of plan.hidden) {
    if (isDirectory(entry)) args.push('--tmpfs', entry, '--remount-ro', entry);
    else args.push('--ro-bind', '/dev/null', entry);
  }
  args.push('--setenv', 'TMPDIR', '/tmp', '--unsetenv', 'SSH_AUTH_SOCK', '--unsetenv', 'GPG_AGENT_INFO', '--chdir', plan.workspace);
  return args;
}

/** `bwrap <args> -- command args…` as one argv. */
export function wrapCommand(bwrap: string, plan: SandboxPlan, command: string, args: readonly string[]): { command: string; args: string[] } {
  return { command: bwrap, args: [...bwrapArgs(plan), '--', command, ...args] };
}
