import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { lastUserText, textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The built binary in a pseudo-terminal: an answer of about 2 MB that opens a code block and never
// closes it (about 150k short lines). The app must keep drawing and keep taking keys.
const { broker, track } = useBrokerAndTerminals();

const HUGE = `Here it comes:\n\n\`\`\`js\n${Array.from({ length: 150_000 }, (_, index) => `x${index % 10}=${index};`).join('\n')}\n`;

async function startReady(cols: number, rows: number): Promise<TerminalSession> {
  const home = makeScratchHome();
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', mcp: { servers: {} } });
  const term = track(new TerminalSession({ cols, rows, home }));
  await term.waitFor('mcp 1/1');
  return term;
}

describe('end to end: a huge answer never takes the app down', () => {
  it('a 2 MB code block that never closes is drawn, and the input, the next message and :quit still work', async () => {
    expect(HUGE.length).toBeGreaterThan(1_500_000);
    broker.route((request) => (lastUserText(request) === 'huge' ? textReply(HUGE, { chunkSize: 64 * 1024 }) : textReply('second answer here')));
    const term = await startReady(100, 30);
    await term.typeSlowly('huge');
    term.write(keys.enter);
    // The tail of the block is on screen once the answer ended.
    await term.waitFor('x9=149999;', 90_000);
    expect(term.exitCode).toBeUndefined();
    await term.typeSlowly('next');
    term.write(keys.enter);
    await term.waitFor('second answer here', 60_000);
    await term.typeSlowly(':quit');
    term.write(keys.enter);
    await term.waitForExit(20_000);
  }, 240_000);
});
