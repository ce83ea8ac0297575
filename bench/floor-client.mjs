// The floor under two of issue 23's targets: a bare client that does only the network part of the
// app's work, with the same packages (eventsource-parser) and the same answers from the broker.
//   node bench/floor-client.mjs <chat completions URL> stream fetch|http   one answer read, after a warm-up one
//   node bench/floor-client.mjs <chat completions URL> loop fetch|http <steps>
// `stream` prints {cpuMs, firstMs, lastMs} for the measured answer (every event JSON-parsed,
// nothing else done with it); `loop` sends the next request as soon as a tool-call answer's
// [DONE] arrives, with the history grown by the call and a result, as the app does, and prints
// {steps}. The broker measures the gaps; plain JavaScript, so no TypeScript loader's cost counts.
import http from 'node:http';
import { createParser } from 'eventsource-parser';

const [url, kind, transport, stepsText] = process.argv.slice(2);

/** POSTs `body` and calls `onEvent` with every SSE data field; resolves at the end of the body. */
function post(body, onEvent) {
  const payload = JSON.stringify(body);
  const parser = createParser({ onEvent: (event) => onEvent(event.data) });
  if (transport === 'fetch') {
    return (async () => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })();
  }
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      response.setEncoding('utf8');
      response.on('data', (text) => parser.feed(text));
      response.on('end', resolve);
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}
const agent = new http.Agent({ keepAlive: true });

if (kind === 'stream') {
  const question = { model: 'floor', stream: true, messages: [{ role: 'user', content: 'go' }] };
  await post(question, () => {});
  let firstMs;
  let lastMs;
  const before = process.cpuUsage();
  await post(question, (data) => {
    if (data === '[DONE]') return;
    const chunk = JSON.parse(data);
    if (chunk.choices?.[0]?.delta?.content) {
      lastMs = performance.now();
      firstMs ??= lastMs;
    }
  });
  const used = process.cpuUsage(before);
  console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, firstMs, lastMs }));
} else {
  const steps = Number(stepsText);
  const messages = [{ role: 'user', content: 'go' }];
  for (let step = 0; step <= steps; step++) {
    const calls = [];
    await post({ model: 'floor', stream: true, messages, tools: [] }, (data) => {
      if (data === '[DONE]') return;
      for (const call of JSON.parse(data).choices?.[0]?.delta?.tool_calls ?? []) {
        if (call.id) calls.push({ id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } });
        if (call.function?.arguments) calls[calls.length - 1].function.arguments += call.function.arguments;
      }
    });
    if (calls.length === 0) break;
    messages.push({ role: 'assistant', content: null, tool_calls: calls });
    for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, content: '1' });
  }
  console.log(JSON.stringify({ steps }));
}
agent.destroy();
