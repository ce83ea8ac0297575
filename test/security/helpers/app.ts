import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedBroker } from '../../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../../helpers/terminal';

// Shared set-up for the security and fault tests that drive the built binary: a scratch home with
// a config pointing at the scripted broker and the given MCP servers, and readers for what the app
// left in its state directory.

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const HOSTILE_SERVER = path.join(FIXTURES, 'hostile-mcp-server.mjs');
/** The approval keys are dead for 400 ms after a frame appears; wait a little longer. */
export const FRAME_DELAY_MS = 600;

export interface AppOptions {
  broker: ScriptedBroker;
  servers?: Record<string, unknown>;
  /** Extra top-level config keys (merged over the defaults below). */
  config?: Record<string, unknown>;
  /** Extra mcp config keys (autoApprove, toolTimeoutMs, …). */
  mcp?: Record<string, unknown>;
  model?: Record<string, unknown>;
  cols?: number;
  rows?: number;
  home?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
}

/** Writes the config into `home` (a new scratch home by default) and returns it. */
export function prepareHome(options: Omit<AppOptions, 'cols' | 'rows' | 'args' | 'env'>): string {
  const home = options.home ?? makeScratchHome('aish-sec-');
  writeHomeConfig(home, {
    models: { scripted: { baseUrl: options.broker.url, model: 'scripted', ...options.model } },
    defaultModel: 'scripted',
    builtin: false,
    ...options.config,
    mcp: { servers: options.servers ?? {}, ...options.mcp },
  });
  return home;
}

export function startApp(options: AppOptions): TerminalSession {
  const home = prepareHome(options);
  return new TerminalSession({ cols: options.cols ?? 120, rows: options.rows ?? 40, home, ...(options.args ? { args: options.args } : {}), ...(options.env ? { env: options.env } : {}) });
}

/** The hostile stdio server as a config entry. */
export function hostileServer(env: Record<string, string> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [HOSTILE_SERVER], env };
}

/**
 * Types a message one key at a time, sends it, and waits until the input bar is empty again (or the
 * message came straight back, unanswered): keys
 * typed right after Enter could otherwise arrive in the same read as the Enter, and the app rightly
 * takes such a burst for a paste (the Enter becomes a newline).
 */
export async function ask(term: TerminalSession, text: string): Promise<void> {
  await term.typeSlowly(text);
  const inInput = new RegExp(`│ ›\\s+${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
  await term.waitFor(inInput);
  const sentAt = term.raw.length;
  term.write(keys.enter);
  // Sent: the input empties. A request that fails at once (a 401 from a local server) puts the
  // message back before a look at the screen may catch it empty; that notice counts too.
  await term.waitFor((screen) => !inInput.test(screen) || term.raw.slice(sentAt).includes('back in the input'), 20_000);
}

export function stateDir(home: string): string {
  return path.join(home, '.local', 'state', 'aish');
}

export interface SessionRecord {
  type: string;
  message?: { role: string; content?: string; toolCalls?: Array<{ id: string; name: string; arguments: string }>; toolCallId?: string; finishReason?: string; isError?: boolean };
  [key: string]: unknown;
}

/** The records of the only (or newest) session log in `home`. */
export function sessionRecords(home: string): SessionRecord[] {
  const dir = path.join(stateDir(home), 'sessions');
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => path.join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (files.length === 0) return [];
  return readFileSync(files[0]!, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SessionRecord);
}

/** The messages of the newest session log, in order. */
export function sessionMessages(home: string): NonNullable<SessionRecord['message']>[] {
  return sessionRecords(home).flatMap((record) => (record.type === 'message' && record.message ? [record.message] : []));
}

/** Every file under `dir` with its permission bits. */
export function filesWithModes(dir: string): Array<{ file: string; mode: number }> {
  const out: Array<{ file: string; mode: number }> = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesWithModes(file));
    else out.push({ file, mode: statSync(file).mode & 0o777 });
  }
  return out;
}

/**
 * Waits for `what`, then until the screen stops changing: a frame can reach the terminal in more
 * than one read, and a screen read in between shows half of it.
 */
export async function waitForSettled(term: TerminalSession, what: Parameters<TerminalSession['waitFor']>[0], timeoutMs = 15_000): Promise<string> {
  let screen = await term.waitFor(what, timeoutMs);
  const deadline = Date.now() + 3_000;
  for (;;) {
    await sleep(120);
    const next = await term.screen();
    if (next === screen || Date.now() > deadline) return next;
    screen = next;
  }
}

/** `dir` and every directory under it with its permission bits. */
export function directoriesWithModes(dir: string): Array<{ dir: string; mode: number }> {
  if (!existsSync(dir)) return [];
  const out = [{ dir, mode: statSync(dir).mode & 0o777 }];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) out.push(...directoriesWithModes(path.join(dir, entry.name)));
  }
  return out;
}

/** Waits until `probe` holds, polling. */
export async function until(probe: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
