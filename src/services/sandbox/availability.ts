// Whether bubblewrap can confine anything here: Linux, `bwrap` on PATH, and a kernel that lets it
// make the namespaces (a trial run). Asked once per PATH; when the answer is no, the caller
// refuses to run the command or server (never runs it unconfined) and shows this reason.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { SandboxAvailability } from './types';

export const INSTALL_HINT = 'install the bubblewrap package (Debian/Ubuntu: sudo apt-get install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)';

/** The first executable `bwrap` on PATH. */
export function findBwrap(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'bwrap');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The namespaces the sandbox needs, around `true`: fails where user namespaces are off. */
const TRIAL = ['--unshare-user', '--unshare-pid', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--', 'true'];

function trial(bwrap: string, env: NodeJS.ProcessEnv): Promise<SandboxAvailability> {
  return new Promise((resolve) => {
    execFile(bwrap, TRIAL, { env, timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve({ ok: true, bwrap });
      const said = String(stderr).trim().split('\n')[0] || error.message;
      resolve({ ok: false, reason: `bubblewrap (${bwrap}) cannot make a sandbox here: ${said}; user namespaces may be off (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces > 0)` });
    });
  });
}

const checked = new Map<string, Promise<SandboxAvailability>>();

export function checkSandbox(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): Promise<SandboxAvailability> {
  if (platform !== 'linux') return Promise.resolve({ ok: false, reason: `the sandbox needs Linux with bubblewrap; this is ${platform}` });
  const bwrap = findBwrap(env);
  if (!bwrap) return Promise.resolve({ ok: false, reason: `bwrap was not found on PATH: ${INSTALL_HINT}` });
  let answer = checked.get(bwrap);
  if (!answer) {
    answer = trial(bwrap, env);
    checked.set(bwrap, answer);
  }
  return answer;
}
