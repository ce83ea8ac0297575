// A 401 after a key was sent names where that key came from; only a request without a key asks
// whether the server needs one. Real HTTP, the built binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReply, startScriptedBroker, type ScriptedBroker } from '../../helpers/scripted-broker';
import { runAish } from './run-headless';

let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

const rejected = () => errorReply(401, { error: { message: 'Invalid API key' } });

describe('HTTP 401 hint', () => {
  it('--api-key-env: the server rejected the key from that variable (and the key never shows)', async () => {
    broker.enqueue(rejected());
    const result = await runAish(['--base-url', broker.url, '--model', 'scripted', '--api-key-env', 'MY_KEY', '-p', 'hi'], { env: { MY_KEY: 'sk-live-0123456789' } });
    expect(result.code).toBe(1);
    expect(broker.requests.at(-1)!.headers.authorization).toBe('Bearer sk-live-0123456789');
    expect(result.stderr).toBe('aish-tui: HTTP 401: Invalid API key (the server rejected the key from $MY_KEY)\n');
  });

  it('apiKey in the config: the hint names the model\'s apiKey, not "does this server need a key?"', async () => {
    broker.enqueue(rejected());
    const config = { models: { cloud: { baseUrl: broker.url, model: 'scripted', apiKey: 'sk-config-0123456789' } } };
    const result = await runAish(['-p', 'hi', '--output-format', 'json'], { config });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toBe('HTTP 401: Invalid API key (the server rejected the key from apiKey of model "cloud")');
    expect(result.stdout + result.stderr).not.toContain('sk-config-0123456789');
  });

  it('no key sent: asks whether the server needs one', async () => {
    broker.enqueue(rejected());
    const result = await runAish(['--base-url', broker.url, '--model', 'scripted', '-p', 'hi']);
    expect(broker.requests.at(-1)!.headers.authorization).toBeUndefined();
    expect(result.stderr).toContain('(no API key was sent: does this server need one? set keyEnv or apiKey for the model, or pass --api-key-env)');
  });
});
