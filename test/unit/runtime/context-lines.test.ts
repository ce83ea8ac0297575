import { describe, expect, it } from 'vitest';
import { contextLines } from '../../../src/runtime/context-lines';
import type { ContextSnapshot } from '../../../src/services/conversation/types';

const snapshot: ContextSnapshot = {
  model: 'local',
  used: 2048,
  reported: false,
  counting: 'estimated (about 4 characters a token), corrected by 2 server counts',
  window: { tokens: 8192, source: 'config' } as ContextSnapshot['window'],
  parts: { system: 100, tools: 200, toolsByServer: { fs: 200 }, messages: 1748, reserve: 1024 } as ContextSnapshot['parts'],
};
const settings = { autoCompactAt: 0.85 as const, reserveFrom: 'max_tokens' };

describe(':context', () => {
  it('says how an estimated size was counted, and a counted one as the server counted it', () => {
    expect(contextLines(snapshot, settings)[0]).toBe('context of local: 2.0k of 8k tokens (25%), estimated (about 4 characters a token), corrected by 2 server counts');
    expect(contextLines({ ...snapshot, reported: true }, settings)[0]).toMatch(/, counted by the server for the last request$/);
    const { counting: _unused, ...plain } = snapshot;
    expect(contextLines(plain, settings)[0]).toMatch(/, estimated$/);
  });
});
