import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { ROOT } from '../../helpers/mcp';
import { runAish, streamLines } from './run-headless';

// `-p` and a seed-style async server (an operation id at once, the result later as a progress
// notification): a late result that arrives before the run ends is reported on stderr and in the
// json / stream-json output.

const server = { command: process.execPath, args: [path.join(ROOT, 'test', 'helpers', 'async-ops-server.mjs')] };
let broker: ScriptedBroker;

beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

// The final answer is slow (a pause before each frame), so the late result arrives during the run.
const script = () => broker.enqueue(toolCallReply([{ id: 'b1', name: 'ops__build', arguments: { target: 'app', ms: 50 } }]), textReply('Build started.', { tokensPerSecond: 3 }));
const run = (format: string) =>
  runAish(['--base-url', broker.url, '--model', 'scripted', '-p', 'build it', '--auto-approve', 'ops__build', '--output-format', format], { config: { builtin: false, mcp: { servers: { ops: server } } } });

describe('-p and late results', () => {
  it('json: late_results holds the result pushed after the call returned; stderr says it', async () => {
    script();
    const result = await run('json');
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.text).toBe('Build started.');
    expect(output.late_results).toEqual([expect.objectContaining({ tool: 'ops__build', progress: 1, total: 1 })]);
    expect(output.late_results[0].message).toContain('op_');
    expect(result.stderr).toContain('ops__build reported after its call had returned (progress 1/1)');
  });

  it('stream-json: a late_result line', async () => {
    script();
    const result = await run('stream-json');
    expect(result.code).toBe(0);
    expect(streamLines(result.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'late_result', tool: 'ops__build', progress: 1 })]));
  });
});
