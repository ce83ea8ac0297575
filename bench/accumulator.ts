import { accumulate, createAccumulator, finalize, type SseMessage } from '../src/services/broker/accumulator';
import { parseSse } from '../src/services/broker/sse';
import { accumulateStream } from '../src/services/broker/stream';
import { mbPerSecond, medianMs, perSecond, type Scenario } from './scenario';

// Accumulator throughput on a long answer in the shape OpenAI-compatible servers stream: a role
// chunk, reasoning deltas, one to a few words of content per chunk (multi-byte text included),
// a tool call whose arguments arrive in fragments, usage null on every chunk, a usage chunk, [DONE].

const WORDS = ['The ', 'quick ', 'brown ', 'fox ', 'jumps ', 'über ', 'the ', 'lazy ', 'dog; ', 'naïve ', 'café ', '日本語 ', '🦊 ', '`code` ', '**bold** ', '\n\n'];

function chunkLine(delta: Record<string, unknown>, finish: string | null = null): string {
  const body = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1735000000,
    model: 'bench-model',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** A transcript of about `targetBytes` bytes. */
export function buildTranscript(targetBytes: number): string {
  const parts: string[] = [chunkLine({ role: 'assistant', content: '' })];
  let size = parts[0]!.length;
  let i = 0;
  const push = (line: string) => {
    parts.push(line);
    size += line.length;
  };
  for (; i < 200; i++) push(chunkLine({ reasoning_content: WORDS[i % WORDS.length] }));
  while (size < targetBytes) push(chunkLine({ content: WORDS[i++ % WORDS.length] }));
  push(chunkLine({ tool_calls: [{ index: 0, id: 'call_bench', type: 'function', function: { name: 'builtin__calculator', arguments: '' } }] }));
  const args = JSON.stringify({ expression: '(1+2)*3'.repeat(50) });
  for (let at = 0; at < args.length; at += 7) push(chunkLine({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + 7) } }] }));
  push(chunkLine({}, 'tool_calls'));
  push(`data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 100, completion_tokens: i, total_tokens: 100 + i } })}\n\n`);
  push('data: [DONE]\n\n');
  return parts.join('');
}

/** The same transcript as eventsource-parser would hand it over: one message per event. */
function messagesOf(transcript: string): SseMessage[] {
  return transcript
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => ({ data: block.slice('data: '.length) }));
}

function runAccumulator(messages: SseMessage[]): number {
  let state = createAccumulator();
  let events = 0;
  for (const message of messages) {
    const step = accumulate(state, message);
    state = step.state;
    events += step.events.length;
  }
  return events + finalize(state, 'complete').length;
}

function bodyOf(bytes: Uint8Array, readSize: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + readSize));
      offset += readSize;
    },
  });
}

async function runPipeline(bytes: Uint8Array, readSize: number): Promise<number> {
  let events = 0;
  const run = accumulateStream(parseSse(bodyOf(bytes, readSize)), createAccumulator());
  for (;;) {
    const step = await run.next();
    if (step.done) return events + finalize(step.value.state, 'complete').length;
    events++;
  }
}

const transcript = buildTranscript(8 * 1024 * 1024);
const bytes = new TextEncoder().encode(transcript);

export const accumulatorScenarios: Scenario[] = [
  {
    name: 'accumulator (pure, pre-parsed SSE)',
    async run() {
      const messages = messagesOf(transcript);
      const events = runAccumulator(messages);
      const ms = await medianMs(() => runAccumulator(messages));
      return { input: `${(bytes.length / 1048576).toFixed(1)} MiB, ${messages.length} chunks`, 'median ms': ms.toFixed(1), 'MB/s': mbPerSecond(bytes.length, ms), 'events/s': perSecond(events, ms) };
    },
  },
  ...[16 * 1024, 1024].map(
    (readSize): Scenario => ({
      name: `bytes -> UTF-8 -> SSE -> accumulator (${readSize / 1024} KiB reads)`,
      async run() {
        const events = await runPipeline(bytes, readSize);
        const ms = await medianMs(() => runPipeline(bytes, readSize), 5, 1);
        return { input: `${(bytes.length / 1048576).toFixed(1)} MiB`, 'median ms': ms.toFixed(1), 'MB/s': mbPerSecond(bytes.length, ms), 'events/s': perSecond(events, ms) };
      },
    }),
  ),
];
