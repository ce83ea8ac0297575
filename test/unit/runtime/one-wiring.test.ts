import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// "One runtime, two front ends": the TUI, `-p` and `aish-tui mcp …` get the MCP manager, the
// approval policy and pins, the redactor, the session file and the conversation loop from the
// runtime. Each is built in exactly one runtime file, so a change to how a tool call is decided (or
// what the log keeps) is made once. Services define these; only the named file outside them calls.
const SRC = path.resolve(import.meta.dirname, '..', '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

const WIRING: Record<string, string> = {
  createMcpManager: 'runtime/mcp.ts',
  createApprovalPolicy: 'runtime/tool-policy.ts',
  createFilePinStore: 'runtime/tool-policy.ts',
  trackDefinitions: 'runtime/tool-policy.ts',
  createRedactor: 'runtime/runtime.ts',
  collectSecrets: 'runtime/runtime.ts',
  openHistory: 'runtime/session-log.ts',
  runConversation: 'runtime/runtime.ts',
};

describe('the runtime wires each service once', () => {
  it('outside services/, each of them is called in one runtime file only', () => {
    const callers: Record<string, string[]> = {};
    for (const file of files(SRC)) {
      const relative = path.relative(SRC, file);
      if (relative.startsWith(`services${path.sep}`)) continue;
      const text = readFileSync(file, 'utf8');
      for (const name of Object.keys(WIRING)) {
        if (new RegExp(`\\b${name}\\(`).test(text)) (callers[name] ??= []).push(relative.split(path.sep).join('/'));
      }
    }
    expect(callers).toEqual(Object.fromEntries(Object.entries(WIRING).map(([name, file]) => [name, [file]])));
  });
});
