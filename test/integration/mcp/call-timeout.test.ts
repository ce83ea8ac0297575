import { afterEach, describe, expect, it } from 'vitest';
import { EVERYTHING, testManager, type TestManager } from '../../helpers/mcp';

// A call's timeout counts silence: progress notifications extend it, up to 10x in all. A call
// stopped by that cap ran far longer than the configured limit, and its message says so.

let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('tool-call timeout with progress', () => {
  it('gives the real elapsed time and says that progress extended the limit', async () => {
    test = testManager();
    await test.manager.connect('ev', { command: process.execPath, args: [EVERYTHING, 'stdio'], timeoutMs: 500 });
    // A progress notification every 200 ms for 10 s: each one restarts the 500 ms limit, until
    // the 5 s cap (10x) ends the call. Nobody asked to see the progress: it still counts. (With a
    // 300 ms limit, one notification held up 100 ms on a loaded machine ended the call early.)
    const outcome = await test.manager.callTool('ev', 'trigger-long-running-operation', { duration: 10, steps: 50 });
    expect(outcome.kind).toBe('timeout');
    const match = /^\[aish\] tool transport error: timed out after ([\d.]+)s \(progress notifications extended the 500ms limit, up to 10x: 5s\)$/.exec(outcome.content);
    expect(match, outcome.content).not.toBeNull();
    expect(Number(match![1])).toBeGreaterThanOrEqual(5);
  });

  it('keeps the configured limit in the message when no progress came', async () => {
    test = testManager();
    await test.manager.connect('ev', { command: process.execPath, args: [EVERYTHING, 'stdio'], timeoutMs: 500 });
    // One step of 3 s: the only progress notification would come after the limit.
    const outcome = await test.manager.callTool('ev', 'trigger-long-running-operation', { duration: 3, steps: 1 });
    expect(outcome).toEqual({ kind: 'timeout', content: '[aish] tool transport error: timed out after 500ms', isError: true });
  });
});
