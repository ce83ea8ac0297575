import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createMcpManager } from '../../src/services/mcp/client';
import type { McpManagerOptions } from '../../src/services/mcp/index';
import type { McpEvent, McpManagerService } from '../../src/services/mcp/types';

// Shared pieces for the MCP integration tests: a manager with a scratch state directory that
// records every event, and the real server-everything from npm over HTTP or SSE.

const here = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(here, '..', '..');
export const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const MISBEHAVING = path.join(here, 'misbehaving-stdio-server.mjs');

export interface TestManager {
  manager: McpManagerService;
  events: McpEvent[];
  statuses: () => string[];
  stateDir: string;
  dispose: () => Promise<void>;
}

export function testManager(options: Partial<McpManagerOptions> = {}): TestManager {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-test-'));
  const manager = createMcpManager({ stateDir, clientVersion: '0.0.0-test', connectTimeoutMs: 15_000, ...options });
  const events: McpEvent[] = [];
  manager.subscribe((event) => events.push(event));
  return {
    manager,
    events,
    stateDir,
    statuses: () => events.flatMap((event) => (event.type === 'status' ? [event.message] : [])),
    dispose: async () => {
      await manager.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/** Starts server-everything in `streamableHttp` or `sse` mode on a free loopback port. */
export async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<RunningServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening on port|running on port/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything ${mode} exited with ${code}: ${output}`));
    });
  });
  const url = mode === 'sse' ? `http://127.0.0.1:${port}/sse` : `http://127.0.0.1:${port}/mcp`;
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Waits until `check` holds, polling every 20 ms; fails after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(20);
  }
}

/** SIGKILL: no goodbye on any stream, as when a machine or a container disappears. Resolves once it exited. */
export async function killHard(running: RunningServer): Promise<void> {
  const exited = new Promise((resolve) => running.child.once('exit', resolve));
  running.child.kill('SIGKILL');
  await exited;
}
