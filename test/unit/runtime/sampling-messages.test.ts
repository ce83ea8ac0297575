import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/services/config/schema';
import type { AppConfig } from '../../../src/services/config/load';
import type { SamplingRequest } from '../../../src/services/mcp/types';
import { editableRequest, parseEditedRequest, RateWindow, samplingLimits, samplingWireMessages } from '../../../src/runtime/sampling-messages';

const png = 'iVBORw0KGgo='; // 8 bytes of base64 payload

function request(over: Partial<SamplingRequest> = {}): SamplingRequest {
  return { id: 'r1', alias: 'srv', maxTokens: 100, messages: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }], ...over };
}

describe('MCP sampling messages -> chat-completions messages', () => {
  it('system prompt first, then each message; text parts of a message joined by a blank line', () => {
    const wire = samplingWireMessages(
      request({
        systemPrompt: 'Be brief.',
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] },
          { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
          { role: 'user', content: [{ type: 'text', text: 'three' }] },
        ],
      }),
    );
    expect(wire).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'one\n\ntwo' },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'three' },
    ]);
  });

  it('no system message for an absent or blank system prompt', () => {
    expect(samplingWireMessages(request({ systemPrompt: '  ' }))).toEqual([{ role: 'user', content: 'hello' }]);
  });

  it('a user image becomes an image_url part with a data URL, audio an input_audio part', () => {
    const wire = samplingWireMessages(
      request({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image', mimeType: 'image/png', data: png },
              { type: 'audio', mimeType: 'audio/mpeg', data: 'AAAA' },
            ],
          },
        ],
      }),
    );
    expect(wire).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'mp3' } },
        ],
      },
    ]);
  });

  it('media in an assistant turn and unsupported content become placeholders (assistant turns are text)', () => {
    const wire = samplingWireMessages(
      request({
        messages: [
          { role: 'user', content: [{ type: 'other', kind: 'tool_result' }] },
          { role: 'assistant', content: [{ type: 'image', mimeType: 'image/png', data: png }] },
        ],
      }),
    );
    expect(wire).toEqual([
      { role: 'user', content: '[tool_result content not supported]' },
      { role: 'assistant', content: '[image/png, 8 B]' },
    ]);
  });
});

describe('editing a sampling request as text', () => {
  it('round trip: the edited text gives the same request', () => {
    const original = request({ systemPrompt: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }] }, { role: 'assistant', content: [{ type: 'text', text: 'b' }] }] });
    const parsed = parseEditedRequest(editableRequest(original), original);
    expect(parsed).toEqual({ request: original });
  });

  it('changes system prompt, max tokens and text; media parts are kept whatever their line says', () => {
    const original = request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', mimeType: 'image/png', data: png }] }] });
    const text = editableRequest(original);
    expect(text).toContain('[kept: image/png, 8 B]');
    const edited = text.replace('### system prompt\n', '### system prompt\nNew system.').replace('\n100\n', '\n7\n').replace('look', 'look closely');
    expect(parseEditedRequest(edited, original)).toEqual({
      request: { ...original, systemPrompt: 'New system.', maxTokens: 7, messages: [{ role: 'user', content: [{ type: 'text', text: 'look closely' }, { type: 'image', mimeType: 'image/png', data: png }] }] },
    });
  });

  it('says what is wrong with an edit it cannot read', () => {
    expect(parseEditedRequest('### max tokens\nmany\n### user\nx', request())).toEqual({ problem: 'max tokens: expected a positive whole number, got "many"' });
    expect(parseEditedRequest('### system prompt\nonly', request())).toEqual({ problem: 'no ### user message left' });
    expect(parseEditedRequest('stray\n### user\nx', request())).toEqual({ problem: 'text before the first ### section' });
  });
});

describe('sampling limits', () => {
  const config = (mcp: unknown) => ({ mcp: configSchema.parse({ mcp }).mcp }) as Pick<AppConfig, 'mcp'>;

  it('defaults: on, asked, 4096 tokens, 10 a minute', () => {
    expect(samplingLimits(config({}), 'x')).toEqual({ enabled: true, autoApprove: false, maxTokens: 4096, perMinute: 10 });
  });

  it("a server's own settings win over mcp.sampling's", () => {
    const limits = samplingLimits(config({ sampling: { maxTokens: 500, perMinute: 3 }, servers: { x: { command: 'x', sampling: { autoApprove: true, perMinute: 1 } } } }), 'x');
    expect(limits).toEqual({ enabled: true, autoApprove: true, maxTokens: 500, perMinute: 1 });
    expect(samplingLimits(config({ servers: { x: { command: 'x', sampling: { enabled: false } } } }), 'x').enabled).toBe(false);
  });

  it('the window counts per server and forgets after a minute', () => {
    const window = new RateWindow();
    expect(window.take('a', 2, 0)).toBe(true);
    expect(window.take('a', 2, 1_000)).toBe(true);
    expect(window.take('a', 2, 2_000)).toBe(false);
    expect(window.take('b', 2, 2_000)).toBe(true);
    expect(window.take('a', 2, 60_001)).toBe(true);
  });
});
