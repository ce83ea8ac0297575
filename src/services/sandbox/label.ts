// The line a command frame shows before a sandboxed command runs: how it is confined, or that it
// will be refused (so the user learns it before choosing Run, not after).
import { describeSandbox } from './plan';
import { prepareSandbox } from './prepare';
import type { SandboxSettings } from './types';

export async function sandboxLabel(settings: SandboxSettings, workspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  const prepared = await prepareSandbox(settings, workspace, env);
  if (!prepared.ok) return `not sandboxed, so it will not run: ${prepared.reason}`;
  return describeSandbox(prepared.plan);
}
