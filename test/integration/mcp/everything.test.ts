import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/services/config/schema';
import type { ToolProgress } from '../../../src/services/mcp/types';
import { buildToolIndex } from '../../../src/services/tools/names';
import { EVERYTHING, startEverything, testManager, type RunningServer, type TestManager } from '../../helpers/mcp';

// The reference server from npm, over each of its transports, through the same manager the app uses.

const transports: Array<{ name: string; transport: string; start: () => Promise<{ config: ServerConfig; server?: RunningServer }> }> = [
  { name: 'stdio', transport: 'stdio', start: async () => ({ config: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }) },
  {
    name: 'streamable HTTP',
    transport: 'streamable-http',
    start: async () => {
      const server = await startEverything('streamableHttp');
      return { config: { url: server.url }, server };
    },
  },
  {
    name: 'legacy SSE (found by falling back from streamable HTTP)',
    transport: 'sse',
    start: async () => {
      const server = await startEverything('sse');
      return { config: { url: server.url }, server };
    },
  },
];

describe.each(transports)('server-everything over $name', ({ transport, start }) => {
  let test: TestManager;
  let server: RunningServer | undefined;

  beforeAll(async () => {
    const started = await start();
    server = started.server;
    test = testManager();
    const snapshot = await test.manager.connect('everything', started.config);
    expect(snapshot.error).toBeUndefined();
    expect(snapshot.state).toBe('ready');
  });

  afterAll(async () => {
    await test?.dispose();
    await server?.stop();
  });

  it('reports the transport, the server and its tools', () => {
    const [snapshot] = test.manager.servers();
    expect(snapshot?.transport).toBe(transport);
    expect(snapshot?.serverName).toMatch(/everything/);
    expect(snapshot?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const names = snapshot?.tools.map((tool) => tool.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']));
    const index = buildToolIndex(test.manager.servers());
    expect(index.byWireName.get('everything__get-sum')).toMatchObject({ alias: 'everything', tool: 'get-sum' });
  });

  it('calls a tool and flattens its text', async () => {
    const outcome = await test.manager.callTool('everything', 'echo', { message: 'hello over the wire' });
    expect(outcome).toMatchObject({ kind: 'ok', isError: false });
    expect(outcome.content).toContain('hello over the wire');
    const sum = await test.manager.callTool('everything', 'get-sum', { a: 19, b: 23 });
    expect(sum.content).toContain('42');
  });

  it('validates arguments against the input schema before calling', async () => {
    const outcome = await test.manager.callTool('everything', 'get-sum', { a: 'nineteen', b: 23 });
    expect(outcome.kind).toBe('invalid-arguments');
    expect(outcome.content).toMatch(/^\[aish\] tool arguments invalid: .*\/a must be number/);
  });

  it('passes progress notifications on while the call runs', async () => {
    const progress: ToolProgress[] = [];
    const outcome = await test.manager.callTool('everything', 'trigger-long-running-operation', { duration: 0.3, steps: 3 }, { onProgress: (p) => progress.push(p) });
    expect(outcome.kind).toBe('ok');
    // The last notification may race the result (the SDK drops progress for a finished request).
    const steps = progress.map((p) => p.progress);
    expect(steps.slice(0, 2)).toEqual([1, 2]);
    expect(steps.length).toBeLessThanOrEqual(3);
    expect(progress[0]?.total).toBe(3);
  });

  it('turns an image into a one-line placeholder with a one-time notice', async () => {
    const first = await test.manager.callTool('everything', 'get-tiny-image', {});
    expect(first.kind).toBe('ok');
    expect(first.content).toMatch(/\[image\/png, \d+ (B|KB)\]/);
    expect(first.content).not.toMatch(/iVBOR/); // no base64 for the model
    expect(first.notices?.[0]).toMatch(/image\/png/);
    const second = await test.manager.callTool('everything', 'get-tiny-image', {});
    expect(second.notices).toBeUndefined();
    // The caller shows the notice; the manager does not announce it a second time.
    expect(test.statuses().filter((line) => line.includes('placeholder'))).toEqual([]);
  });

  it('cancels a running call when the signal aborts', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const outcome = await test.manager.callTool(
      'everything',
      'trigger-long-running-operation',
      { duration: 20, steps: 20 },
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(outcome.kind).toBe('cancelled');
    expect(outcome.content).toBe('[aish] tool call cancelled by the user');
    expect(Date.now() - started).toBeLessThan(15_000);
    // The session is still usable after a cancelled call.
    const after = await test.manager.callTool('everything', 'echo', { message: 'still here' });
    expect(after.content).toContain('still here');
  });
});
