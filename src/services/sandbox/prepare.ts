// Everything a confined run needs, or the one reason it cannot have it. Shell commands and stdio
// servers both start here, so they refuse for the same reasons with the same words.
import path from 'node:path';
import { checkSandbox } from './availability';
import { planSandbox } from './plan';
import type { SandboxPlan, SandboxSettings } from './types';

export type PreparedSandbox = { ok: true; bwrap: string; plan: SandboxPlan } | { ok: false; reason: string };

export async function prepareSandbox(settings: SandboxSettings, workspace: string, env: NodeJS.ProcessEnv): Promise<PreparedSandbox> {
  // A writable `/` would leave nothing read-only: that is no sandbox.
  if (path.resolve(workspace) === path.parse(path.resolve(workspace)).root) {
    return { ok: false, reason: `the workspace is ${path.resolve(workspace)}, so nothing would stay read-only; start aish-tui in a project directory` };
  }
  const availability = await checkSandbox(env);
  if (!availability.ok) return availability;
  return { ok: true, bwrap: availability.bwrap, plan: planSandbox(settings, { workspace, env }) };
}
