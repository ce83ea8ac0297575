// Run by test/integration/broker/http-text.test.ts in a fresh process: every kind of request the
// app makes to a model's server (a streamed answer, a retried one, the window probes, token counts,
// the model list) against the llama.cpp stand-in at argv[2], then prints what came back and whether
// undici (the module behind fetch, Response, Headers and Request) was loaded. The global fetch
// throws here, so a request that still went through it fails loudly rather than quietly.
export {};

globalThis.fetch = () => {
  throw new Error('the global fetch was used');
};
const base = process.argv[2]!;
const { streamChat } = await import('../../src/services/broker/index');
const { discoverContextWindow } = await import('../../src/services/context/window');
const { listServerModels } = await import('../../src/services/broker/models');
const { createServerTokens } = await import('../../src/services/context/server-tokens');

const model = { name: 'local', baseUrl: base, model: 'local-model' };
let text = '';
let finish: string | undefined;
const statuses: string[] = [];
for await (const event of streamChat({ model, messages: [{ role: 'user', content: 'hello' }], maxRetries: 1 })) {
  if (event.type === 'text-delta') text += event.text;
  if (event.type === 'status') statuses.push(event.message);
  if (event.type === 'finish') finish = event.reason;
}
const found = await discoverContextWindow(model, { env: {} });
const models = await listServerModels(model, { env: {}, timeoutMs: 5000 });
const tokens = createServerTokens({ env: {} });
await tokens.count(model, ['one two three']);
console.log(
  JSON.stringify({
    text,
    finish,
    statuses,
    window: found.tokens,
    models,
    counted: tokens.cached(model, 'one two three'),
    // node's list of its own modules loaded so far (not in its type definitions).
    undici: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.filter((name) => name.includes('undici')),
  }),
);
