import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply } from '../../helpers/scripted-broker';
import { streamChat } from '../../../src/services/broker/index';
import type { BrokerRequest, StreamChat } from '../../../src/services/broker/types';
import { createSession } from '../../../src/runtime/session';
import { createAppStore } from '../../../src/state/store';
import { formatKeymap } from '../../../src/ui/keys/keymap';
import { testConfig } from './harness';

// The TUI shows an answer's text at most ui.maxFps times a second, so its session asks the broker
// to read text no more often (BrokerRequest.textPaceMs); the real broker answers.
const { broker, track } = useBrokerAndTerminals();

describe('the TUI session reads text at its frame rate', () => {
  it.each([30, 12])('maxFps %i: every request is paced at one frame', async (maxFps) => {
    const config = await testConfig(broker.url, (loaded) => {
      loaded.ui.maxFps = maxFps;
    });
    const requests: BrokerRequest[] = [];
    const recording: StreamChat = (request) => {
      requests.push(request);
      return streamChat(request);
    };
    const store = createAppStore();
    const session = track(createSession({ config, store, quit: () => {}, keyHelp: formatKeymap, streamChat: recording }));
    broker.enqueue(textReply('A paced **answer**, word by word.', { chunkSize: 3, tokensPerSecond: 200 }));
    session.submit('hello');
    await session.idle();
    const answer = store.getState().items.find((item) => item.kind === 'assistant');
    expect(answer).toMatchObject({ text: 'A paced **answer**, word by word.', streaming: false });
    expect(requests.map((request) => request.textPaceMs)).toEqual([Math.floor(1000 / maxFps)]);
  });
});
