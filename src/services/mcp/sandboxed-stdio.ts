// A stdio server with `sandbox` in its config runs inside bubblewrap (services/sandbox): the
// server's command line becomes bwrap's. When the sandbox cannot be had the server is not
// started at all, and the connect fails with the reason (never started unconfined).
import path from 'node:path';
import type { StdioServerConfig } from '../config/schema';
import { describeSandbox, planSandbox, prepareSandbox, sandboxSettings, wrapCommand } from '../sandbox/index';

/** The workspace of a stdio server: its `cwd`, else ours. */
function workspaceOf(config: StdioServerConfig): string {
  return path.resolve(config.cwd ?? process.cwd());
}

/** The config with its command wrapped in bwrap, or the config as it is when no sandbox is asked for. */
export async function sandboxedStdio(config: StdioServerConfig, env: NodeJS.ProcessEnv): Promise<StdioServerConfig> {
  const settings = sandboxSettings(config.sandbox);
  if (!settings) return config;
  const prepared = await prepareSandbox(settings, workspaceOf(config), env);
  if (!prepared.ok) throw new Error(`not started: sandbox is set for this server, but ${prepared.reason}`);
  const wrapped = wrapCommand(prepared.bwrap, prepared.plan, config.command, config.args ?? []);
  return { ...config, command: wrapped.command, args: wrapped.args };
}

/** `sandboxed: no network · writes ~/src/app` for the sidebar; undefined without a sandbox. */
export function sandboxNote(config: StdioServerConfig, env: NodeJS.ProcessEnv): string | undefined {
  const settings = sandboxSettings(config.sandbox);
  if (!settings) return undefined;
  return describeSandbox(planSandbox(settings, { workspace: workspaceOf(config), env }), 'short');
}
