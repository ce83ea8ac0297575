// The full-screen UI started with --base-url and no --model talks to the server's own model: the
// status bar and `:model` show the id from GET /v1/models, and that id is what is sent.
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession } from '../helpers/terminal';

const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('pong') });

describe('end to end: --base-url without --model', () => {
  it('shows and sends the id the server lists', async () => {
    broker.models(['granite-3.1-8b', 'phi-4']);
    try {
      const session = track(new TerminalSession({ home: makeScratchHome(), cols: 120, rows: 24, args: ['--base-url', broker.url] }));
      await session.waitFor(/granite-3\.1-8b · idle/);
      // The second listed model is named where the UI keeps start-up notes.
      await session.waitFor('(others: "phi-4"; pass --model <id> to choose)');
      await session.typeSlowly(':model');
      session.write(keys.enter);
      // The model picker shows the server's id as the model's name and as what is sent.
      await session.waitFor(/\* granite-3\.1-8b\s+granite-3\.1-8b at 127\.0\.0\.1/);
      session.write(keys.escape);
      await session.waitFor((screen) => !screen.includes('Choose a model'));
      await session.typeSlowly('ping');
      session.write(keys.enter);
      await session.waitFor('pong');
      const chats = broker.requests.filter((request) => request.method === 'POST');
      expect(chats.at(-1)!.body!.model).toBe('granite-3.1-8b');
    } finally {
      broker.models(undefined);
    }
  });
});
