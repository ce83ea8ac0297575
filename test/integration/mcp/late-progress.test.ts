import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpEvent } from '../../../src/services/mcp/types';
import { testManager, until, type TestManager } from '../../helpers/mcp';

// The seed's async operations (R2-R3): an operation id at once, the result later as a progress
// notification on the call's token. The SDK forgets the token when the call returns; the manager
// keeps listening and reports the late notification with the tool it belongs to.

const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'async-ops-server.mjs');

let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('a result pushed as progress after the call returned', () => {
  it('is reported as a late-progress event naming the tool', async () => {
    test = testManager();
    await test.manager.connect('ahma', { command: process.execPath, args: [SERVER] });
    const outcome = await test.manager.callTool('ahma', 'build', { target: 'core' }, { onProgress: () => {} });
    expect(outcome).toEqual({ kind: 'ok', isError: false, content: '{"operation_id":"op_1","status":"started"}' });
    await until(() => test!.events.some((event) => event.type === 'late-progress'));
    const late = test.events.filter((event): event is Extract<McpEvent, { type: 'late-progress' }> => event.type === 'late-progress');
    expect(late).toEqual([{ type: 'late-progress', alias: 'ahma', tool: 'build', progress: 1, total: 1, message: 'operation op_1 completed: build of core succeeded (0 warnings)' }]);
  });
});
