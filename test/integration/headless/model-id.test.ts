// `--base-url` without `--model`: the id sent is the server's own (its only or first model from
// GET /v1/models), never a made-up "default"; when it cannot be learnt the run says why and what
// to pass. Real HTTP, the built binary.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { errorReply, startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { runAish } from './run-headless';

let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterEach(() => broker.models(undefined));
afterAll(async () => {
  await broker.close();
});

const chatRequests = () => broker.requests.filter((request) => request.method === 'POST');

describe('--base-url without --model', () => {
  it('sends the id of the server\'s only model', async () => {
    broker.models(['qwen2.5-7b-instruct']);
    broker.enqueue(textReply('Hi.'));
    const before = chatRequests().length;
    const result = await runAish(['--base-url', broker.url, '-p', 'hi', '--output-format', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(chatRequests()).toHaveLength(before + 1);
    expect(chatRequests().at(-1)!.body!.model).toBe('qwen2.5-7b-instruct');
    const list = broker.requests.filter((request) => request.method === 'GET').at(-1)!;
    expect(list.path).toBe('/v1/models');
  });

  it('several models: the first, with a note naming the others', async () => {
    broker.models(['llama-3.1-8b', 'mistral-7b', 'phi-4']);
    broker.enqueue(textReply('Hi.'));
    const result = await runAish(['--base-url', broker.url, '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(chatRequests().at(-1)!.body!.model).toBe('llama-3.1-8b');
    expect(result.stderr).toBe('aish-tui: --base-url without --model: the server lists 3 models; using the first, "llama-3.1-8b" (others: "mistral-7b", "phi-4"; pass --model <id> to choose)\n');
  });

  it('an id that cannot name a model (a record key like __proto__, spaces, a bidi control) is still sent as the id', async () => {
    for (const id of ['__proto__', 'my model', 'evil\u202egnp.exe']) {
      broker.models([id]);
      broker.enqueue(textReply('Hi.'));
      const result = await runAish(['--base-url', broker.url, '-p', 'hi', '--output-format', 'json']);
      expect(result).toMatchObject({ code: 0, stderr: '' });
      expect(chatRequests().at(-1)!.body!.model).toBe(id);
      expect(JSON.parse(result.stdout)).toMatchObject({ text: 'Hi.', error: null });
    }
  });

  it('sends the key with the model list request, and a rejected key says so', async () => {
    broker.models(errorReply(401, { error: { message: 'Invalid API key' } }));
    const before = chatRequests().length;
    const result = await runAish(['--base-url', broker.url, '--api-key-env', 'MY_KEY', '-p', 'hi'], { env: { MY_KEY: 'sk-list-0123456789' } });
    expect(result.code).toBe(1);
    expect(broker.requests.at(-1)!.headers.authorization).toBe('Bearer sk-list-0123456789');
    expect(result.stderr).toBe(
      `aish-tui: --base-url without --model: cannot learn the model id from ${broker.url}/models: HTTP 401: Invalid API key (the server rejected the key from $MY_KEY); pass --model <id> to name the model\n`,
    );
    expect(chatRequests()).toHaveLength(before);
  });

  it('a server that lists no model, or answers something else: exit 2 and "pass --model <id>"', async () => {
    broker.models([]);
    const none = await runAish(['--base-url', broker.url, '-p', 'hi']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`aish-tui: --base-url without --model: cannot learn the model id from ${broker.url}/models: the server lists no models; pass --model <id> to name the model\n`);

    broker.models(errorReply(200, '<html><body>hello</body></html>', { contentType: 'text/html' }));
    const html = await runAish(['--base-url', broker.url, '-p', 'hi']);
    expect(html.code).toBe(2);
    expect(html.stderr).toContain('the answer is not a model list: <html><body>hello</body></html>; pass --model <id>');
  });

  it('nobody listening: exit 1, connection refused and what to pass', async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = await runAish(['--base-url', `http://127.0.0.1:${port}/v1`, '-p', 'hi']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`aish-tui: --base-url without --model: cannot learn the model id from http://127.0.0.1:${port}/v1/models: connection refused; pass --model <id> to name the model\n`);
  });

  it('--model given: nothing is asked, the id is sent as given', async () => {
    broker.enqueue(textReply('Hi.'));
    const before = broker.requests.length;
    const result = await runAish(['--base-url', broker.url, '--model', 'exact-id', '-p', 'hi']);
    expect(result.code).toBe(0);
    expect(broker.requests.slice(before).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /v1/chat/completions']);
    expect(chatRequests().at(-1)!.body!.model).toBe('exact-id');
  });
});
