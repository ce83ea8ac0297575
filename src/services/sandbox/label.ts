// The line a command frame shows before a sandboxed command runs: how it is confined, or that it
// will be refused (so the user learns it before choosing Run, not after).
import { checkSandbox } from './availability';
import { describeSandbox, planSandbox } from './plan';
import type { SandboxSettings } from './types';

export async function sandboxLabel(settings: SandboxSettings, workspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  const availability = await checkSandbox(env);
  if (!availability.ok) return `not sandboxed, so it will not run: ${availability.reason}`;
  return describeSandbox(planSandbox(settings, { workspace, env }));
}
