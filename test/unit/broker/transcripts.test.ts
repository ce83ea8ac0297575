import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BrokerEvent } from '../../../src/services/broker/types';
import { cut, eventsOf, joinText } from './pipeline';

// Every transcript in test/fixtures/transcripts is a response body in the shape one server sends
// (or one quirk), with the exact events the broker must produce. Each is fed whole, one byte per
// read, and cut at random points: SSE framing, UTF-8 decoding and the accumulator must not care
// where the network splits the bytes (the text of one read comes as one delta: compared joined).

const DIR = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'transcripts');
const names = readdirSync(DIR)
  .filter((file) => file.endsWith('.sse'))
  .map((file) => file.slice(0, -'.sse'.length))
  .sort();

function load(name: string): { bytes: Uint8Array; expected: BrokerEvent[] } {
  const bytes = new Uint8Array(readFileSync(path.join(DIR, `${name}.sse`)));
  const { events } = JSON.parse(readFileSync(path.join(DIR, `${name}.events.json`), 'utf8')) as { events: BrokerEvent[] };
  return { bytes, expected: events };
}

describe('recorded-shape transcripts', () => {
  it('covers every server the broker promises to handle', () => {
    for (const server of ['llamacpp', 'ollama', 'vllm', 'lmstudio', 'openrouter', 'openai', 'groq', 'deepseek']) {
      expect(names.some((name) => name.startsWith(`${server}-`)), server).toBe(true);
    }
  });

  describe.each(names)('%s', (name) => {
    const { bytes, expected } = load(name);

    it('whole body in one read', async () => {
      expect(joinText(await eventsOf([bytes]))).toEqual(joinText(expected));
    });

    it('one byte per read', async () => {
      const offsets = Array.from({ length: bytes.length }, (_, i) => i);
      expect(joinText(await eventsOf(cut(bytes, offsets)))).toEqual(joinText(expected));
    });

    it('random splits', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: Math.max(1, bytes.length - 1) }), { maxLength: 40 }), async (offsets) => {
          expect(joinText(await eventsOf(cut(bytes, offsets)))).toEqual(joinText(expected));
        }),
        { numRuns: 60 },
      );
    });
  });
});
