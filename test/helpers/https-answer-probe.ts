// Child process for test/integration/broker/transport.test.ts: streams two answers from the https
// address in argv[2] through the app's chat path (streamChat, over src/services/broker/http-post.ts)
// and prints their text and errors as one JSON line. Its parent starts it with NODE_EXTRA_CA_CERTS
// naming the server's certificate, which node reads only at start-up. The global fetch throws here,
// so an answer can only have come through the node:http transport.
import { streamChat } from '../../src/services/broker/index';

globalThis.fetch = () => {
  throw new Error('the global fetch was used');
};

const answers: Array<{ text: string; errors: string[]; finish: string | undefined }> = [];
for (let turn = 0; turn < 2; turn++) {
  let text = '';
  const errors: string[] = [];
  let finish: string | undefined;
  for await (const event of streamChat({ model: { name: 'tls', baseUrl: process.argv[2]!, model: 'scripted-model' }, messages: [{ role: 'user', content: `hello ${turn}` }] })) {
    if (event.type === 'text-delta') text += event.text;
    if (event.type === 'error') errors.push(event.message);
    if (event.type === 'finish') finish = event.reason;
  }
  answers.push({ text, errors, finish });
}
process.stdout.write(`${JSON.stringify(answers)}\n`);
