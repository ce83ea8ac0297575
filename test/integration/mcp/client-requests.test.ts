import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/services/config/schema';
import { acceptAnswer, formFromSchema, initialInputs } from '../../../src/services/mcp/elicitation-form';
import type { ElicitationAnswer, ElicitationRequest, ServerSnapshot } from '../../../src/services/mcp/types';
import { EVERYTHING, startEverything, testManager, type RunningServer, type TestManager } from '../../helpers/mcp';

// What server-everything asks of the client (roots, elicitation in form and URL mode) over stdio
// and streamable HTTP, answered through the manager the app uses (README, "What servers may ask").

const transports: Array<{ name: string; start: () => Promise<{ config: ServerConfig; server?: RunningServer }> }> = [
  { name: 'stdio', start: async () => ({ config: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }) },
  {
    name: 'streamable HTTP',
    start: async () => {
      const server = await startEverything('streamableHttp');
      return { config: { url: server.url }, server };
    },
  },
];

/** The tools server-everything offers a client with roots and elicitation (form and URL, also as tasks) but no sampling. */
const CAPABILITY_TOOLS = ['get-roots-list', 'trigger-elicitation-request', 'trigger-url-elicitation', 'trigger-elicitation-request-async'];

describe.each(transports)('server-everything asks the client, over $name', ({ start }) => {
  let test: TestManager;
  let server: RunningServer | undefined;
  const dirs: string[] = [];
  const asked: ElicitationRequest[] = [];
  let answer: (request: ElicitationRequest) => ElicitationAnswer = () => ({ action: 'decline' });

  beforeAll(async () => {
    const started = await start();
    server = started.server;
    dirs.push(mkdtempSync(path.join(os.tmpdir(), 'aish-root-a-')), mkdtempSync(path.join(os.tmpdir(), 'aish-root-b-')));
    test = testManager({
      roots: [dirs[0]!],
      elicit: async (request) => {
        asked.push(request);
        return answer(request);
      },
    });
    const snapshot = await test.manager.connect('everything', started.config);
    expect(snapshot.state).toBe('ready');
    // The conditional tools are registered once the server has read the capabilities; a tools
    // list_changed brings them.
    await until(() => CAPABILITY_TOOLS.every((name) => tools(test).includes(name)));
  });

  afterAll(async () => {
    await test?.dispose();
    await server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('lists the tools that need roots and elicitation (the sampling tools stay hidden: not declared)', () => {
    expect(tools(test)).toEqual(expect.arrayContaining(CAPABILITY_TOOLS));
    expect(tools(test)).not.toContain('trigger-sampling-request');
  });

  it('keeps the server instructions from initialize', () => {
    expect(snapshot(test)?.instructions).toMatch(/\S/);
  });

  it('answers roots/list with the roots, and the server re-reads them after a change', async () => {
    const first = await test.manager.callTool('everything', 'get-roots-list', {});
    expect(first.content).toContain(pathToFileURL(dirs[0]!).href);
    test.manager.setRoots?.([dirs[0]!, dirs[1]!]);
    await until(async () => (await test.manager.callTool('everything', 'get-roots-list', {})).content.includes(pathToFileURL(dirs[1]!).href));
    expect(test.manager.roots?.()).toEqual([dirs[0], dirs[1]]);
  });

  it('puts the form in front of the handler and sends the answers back', async () => {
    answer = (request) => {
      if (request.mode !== 'form') return { action: 'decline' };
      const read = formFromSchema(request.schema);
      if ('problem' in read) throw new Error(read.problem);
      const inputs = initialInputs(read.form);
      const name = read.form.fields.findIndex((field) => field.name === 'name');
      const email = read.form.fields.findIndex((field) => field.name === 'email');
      inputs[name] = 'Ada Lovelace';
      inputs[email] = 'ada@example.com';
      return acceptAnswer(read.form, inputs) ?? { action: 'cancel' };
    };
    const outcome = await test.manager.callTool('everything', 'trigger-elicitation-request', {});
    const request = asked.at(-1);
    expect(request).toMatchObject({ mode: 'form', alias: 'everything', message: 'Please provide inputs for the following fields:' });
    expect(outcome.kind).toBe('ok');
    expect(outcome.content).toContain('- Name: Ada Lovelace');
    expect(outcome.content).toContain('- Email: ada@example.com');
    expect(outcome.content).toContain('- Favorite Integer: 42');
    expect(outcome.content).toContain('"untitledMultipleSelectEnum": [\n      "Guitar"');
  });

  it('sends a decline back as a decline', async () => {
    answer = () => ({ action: 'decline' });
    const outcome = await test.manager.callTool('everything', 'trigger-elicitation-request', {});
    expect(outcome.content).toContain('User declined');
  });

  it('passes a URL request on with its URL and message', async () => {
    answer = () => ({ action: 'accept' });
    const outcome = await test.manager.callTool('everything', 'trigger-url-elicitation', { url: 'https://example.com/consent', message: 'Consent, please' });
    expect(asked.at(-1)).toMatchObject({ mode: 'url', url: 'https://example.com/consent', message: 'Consent, please', elicitationId: expect.any(String) });
    expect(outcome.kind).toBe('ok');
  });

  it('offers the URL of a URL-required error (-32042) and tells the model to call again when the user does not retry', async () => {
    const before = asked.length;
    answer = (request) => (request.mode === 'url' && request.retry ? { action: 'decline' } : { action: 'accept' });
    const outcome = await test.manager.callTool('everything', 'trigger-url-elicitation', { url: 'https://example.com/x', errorPath: true });
    expect(asked.slice(before)).toEqual([
      expect.objectContaining({ mode: 'url', url: 'https://modelcontextprotocol.io', fromError: true }),
      expect.objectContaining({ mode: 'url', retry: { tool: 'trigger-url-elicitation', waitFor: [expect.any(String)] } }),
    ]);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/https:\/\/modelcontextprotocol\.io/);
    expect(outcome.content).toMatch(/call the tool again/);
  });

  it('runs the call once more after a URL-required error when the user agrees, and the server lets it through', async () => {
    const before = asked.length;
    answer = () => ({ action: 'accept' });
    const outcome = await test.manager.callTool('everything', 'trigger-url-elicitation', { url: 'https://example.com/retry', errorPath: true });
    expect(asked.slice(before).map((request) => (request.mode === 'url' ? (request.retry ? 'retry?' : request.url) : 'form'))).toEqual(['https://modelcontextprotocol.io', 'retry?', 'https://example.com/retry']);
    expect(outcome.kind).toBe('ok');
    expect(outcome.content).toContain('User completed the URL elicitation flow');
  });
});

function snapshot(test: TestManager): ServerSnapshot | undefined {
  return test.manager.servers().find((server) => server.alias === 'everything');
}

function tools(test: TestManager): string[] {
  return snapshot(test)?.tools.map((tool) => tool.name) ?? [];
}

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
