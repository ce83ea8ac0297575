import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { EVERYTHING } from '../../helpers/mcp';
import { textReply } from '../../helpers/scripted-broker';
import { testConfig } from '../conversation/harness';
import { createRuntime, type Runtime } from '../../../src/runtime/runtime';
import { acceptInstructions } from '../../../src/services/tools/instruction-pins';
import { createMemoryPinStore, type PinStore } from '../../../src/services/tools/pins';
import type { AppConfig } from '../../../src/services/config/load';

// Server instructions (README.md, "Server instructions"): server-everything's reach the system
// prompt under a heading of their own, unless switched off, or changed since they were pinned
// and not accepted yet.

const { broker, track } = useBrokerAndTerminals();
const HEADING = '## Instructions from MCP server "everything"';

async function systemPromptOf(runtime: Runtime, config: AppConfig): Promise<string> {
  const before = broker.requests.length;
  broker.enqueue(textReply('ok'));
  for await (const _event of runtime.converse({
    signal: new AbortController().signal,
    history: [],
    text: 'hi',
    model: config.models[config.defaultModel]!,
    approve: async () => ({ action: 'deny' }),
    confirmCommand: async () => ({ action: 'skip' }),
  })) {
    // drained
  }
  const request = broker.requests[before];
  const system = request?.body?.messages?.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

async function start(instructions: boolean | undefined, pins: PinStore, notes: string[] = []) {
  const config = await testConfig(broker.url, (loaded) => {
    loaded.builtin = false;
    loaded.mcp.servers = { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], ...(instructions !== undefined ? { instructions } : {}) } };
  });
  const runtime = track(createRuntime(config, { report: (_level, text) => notes.push(text), pins }));
  runtime.mcp.connectAll(config.mcp.servers);
  await runtime.mcp.settled();
  return { config, runtime };
}

describe('server instructions in the system prompt', () => {
  it('adds them under a heading per server, after the configured system prompt', async () => {
    const { config, runtime } = await start(undefined, createMemoryPinStore());
    const instructions = runtime.mcp.servers()[0]?.instructions ?? '';
    expect(instructions.length).toBeGreaterThan(20);
    const system = await systemPromptOf(runtime, config);
    expect(system.startsWith(config.systemPrompt.trimEnd())).toBe(true);
    expect(system).toContain(`${HEADING}\n\n${instructions.trim().slice(0, 40)}`);
  }, 30_000);

  it('leaves them out when the server is configured with instructions: false', async () => {
    const { config, runtime } = await start(false, createMemoryPinStore());
    expect(await systemPromptOf(runtime, config)).not.toContain(HEADING);
    expect(runtime.instructions.stateOf('everything')).toBe('off');
  }, 30_000);

  it('holds back instructions that changed since they were pinned, with a warning, until accepted', async () => {
    const pins = createMemoryPinStore();
    acceptInstructions(pins, 'everything', 'Older instructions the user saw before.');
    const notes: string[] = [];
    const { config, runtime } = await start(undefined, pins, notes);
    expect(notes).toContainEqual(expect.stringMatching(/^mcp everything: its instructions changed since they were first seen; they are not sent/));
    expect(await systemPromptOf(runtime, config)).not.toContain(HEADING);
    expect(runtime.instructions.accept('everything')).toBe(true);
    expect(await systemPromptOf(runtime, config)).toContain(HEADING);
  }, 30_000);
});
