import { describe, expect, it } from 'vitest';
import { describeError, redact } from '../../../src/services/mcp/errors';
import { base64Size, flattenResult, toolTurnText } from '../../../src/services/mcp/flatten';
import { StderrTail } from '../../../src/services/mcp/stderr';
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

describe('flattenResult (one string per tool call)', () => {
  it('concatenates text blocks', () => {
    expect(flattenResult({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] })).toEqual({ text: 'a\nb', binary: [] });
  });

  it('replaces images and audio with a one-line placeholder', () => {
    const data = Buffer.alloc(12 * 1024).toString('base64');
    const flat = flattenResult({
      content: [
        { type: 'image', mimeType: 'image/png', data },
        { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      ],
    });
    expect(flat.text).toBe('[image/png, 12 KB]\n[audio/wav, 3 B]');
    expect(flat.binary).toEqual(['image/png', 'audio/wav']);
  });

  it('includes embedded resources with their URI', () => {
    const flat = flattenResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///etc/motd', text: 'hello' } },
        { type: 'resource', resource: { uri: 'file:///bin/ls', mimeType: 'application/octet-stream', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'file:///x', name: 'x' },
      ],
    });
    expect(flat.text).toBe('[resource file:///etc/motd]\nhello\n[resource file:///bin/ls: application/octet-stream, 3 B]\n[resource link file:///x (x)]');
  });

  it('uses structuredContent when there is no text', () => {
    expect(flattenResult({ content: [], structuredContent: { temperature: 21 } }).text).toBe('{"temperature":21}');
    expect(flattenResult({ content: [{ type: 'text', text: 'warm' }], structuredContent: { t: 1 } }).text).toBe('warm');
  });

  it('uses structuredContent without the base64 a server copied into it (server-filesystem images)', () => {
    const data = Buffer.alloc(75 * 1024, 7).toString('base64');
    const flat = flattenResult({
      content: [{ type: 'image', mimeType: 'image/png', data }],
      structuredContent: { content: [{ type: 'image', mimeType: 'image/png', data }] },
    });
    expect(flat.text).not.toContain(data.slice(0, 64));
    expect(flat.text).toBe('{"content":[{"type":"image","mimeType":"image/png","data":"[image/png, 75 KB]"}]}\n[image/png, 75 KB]');
    expect(flat.binary).toEqual(['image/png', 'image/png']);
  });

  it('replaces every base64 payload in structuredContent: long runs, data: URLs, nested blocks', () => {
    const data = Buffer.alloc(4096, 1).toString('base64');
    const flat = flattenResult({
      content: [],
      structuredContent: { name: 'pic.png', raw: data, preview: `see data:image/png;base64,${data} here`, nested: [{ clip: { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' } }], hash: 'a'.repeat(128) },
    });
    expect(JSON.parse(flat.text)).toEqual({
      name: 'pic.png',
      raw: '[application/octet-stream, 4 KB]',
      preview: 'see [image/png, 4 KB] here',
      nested: [{ clip: { type: 'audio', data: '[audio/wav, 3 B]', mimeType: 'audio/wav' } }],
      hash: 'a'.repeat(128),
    });
    expect(flat.binary).toEqual(['application/octet-stream', 'image/png', 'audio/wav']);
  });

  it('leaves a short text next to a mimeType alone when it is not padded base64', () => {
    expect(flattenResult({ content: [], structuredContent: { note: { mimeType: 'text/plain', data: 'hello' } } }).text).toBe('{"note":{"mimeType":"text/plain","data":"hello"}}');
  });

  it('shows a text/* resource sent as a blob as its text; a binary blob stays a placeholder', () => {
    const blob = Buffer.from('hello from a blob\ngrüße\n').toString('base64');
    const flat = flattenResult({
      content: [
        { type: 'resource', resource: { uri: 'file:///readme.txt', mimeType: 'text/plain; charset=utf-8', blob } },
        { type: 'resource', resource: { uri: 'file:///data.json', mimeType: 'application/json', blob: Buffer.from('{"a":1}').toString('base64') } },
        { type: 'resource', resource: { uri: 'file:///bad.txt', mimeType: 'text/plain', blob: Buffer.from([0xff, 0xfe, 0x00, 0xc3]).toString('base64') } },
      ],
    });
    expect(flat.text).toBe('[resource file:///readme.txt]\nhello from a blob\ngrüße\n\n[resource file:///data.json]\n{"a":1}\n[resource file:///bad.txt: text/plain, 4 B]');
    expect(flat.binary).toEqual(['text/plain']);
  });

  it('a decoded text resource counts as text: structuredContent is not added', () => {
    const blob = Buffer.from('plain words').toString('base64');
    expect(flattenResult({ content: [{ type: 'resource', resource: { uri: 'a:b', mimeType: 'text/markdown', blob } }], structuredContent: { blob } }).text).toBe('[resource a:b]\nplain words');
  });

  it('takes data: URL payloads out of text blocks and of an old server\'s toolResult', () => {
    const data = Buffer.alloc(300, 2).toString('base64');
    expect(flattenResult({ content: [{ type: 'text', text: `<img src="data:image/gif;base64,${data}">` }] }).text).toBe('<img src="[image/gif, 300 B]">');
    expect(flattenResult({ content: undefined as never, toolResult: { image: data } }).text).toBe('{"image":"[application/octet-stream, 300 B]"}');
  });

  it('marks a result the server flagged isError for the model', () => {
    expect(toolTurnText('Permission denied', true)).toBe('[aish] the tool reported an error: Permission denied');
    expect(toolTurnText('', true)).toBe('[aish] the tool reported an error without any text');
    expect(toolTurnText('fine', false)).toBe('fine');
    expect(toolTurnText('', false)).toBe('(no output)');
  });

  it('computes decoded sizes', () => {
    expect(base64Size(Buffer.from('hello').toString('base64'))).toBe(5);
  });
});

describe('errors', () => {
  it('describes failures in one line', () => {
    expect(describeError(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout: 10_000 }))).toBe('timed out after 10s');
    expect(describeError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 401, text: '{"error":"unauthorized"}' }))).toBe('HTTP 401: unauthorized');
    expect(describeError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'x', { status: 502, text: '<html><body>bad gateway</body></html>' }))).toBe('HTTP 502');
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(describeError(refused)).toBe('cannot reach the server (ECONNREFUSED)');
  });

  it('removes secrets from text', () => {
    expect(redact('token sk-abcdef123 rejected', ['sk-abcdef123'])).toBe('token [redacted] rejected');
    expect(redact('Authorization: Bearer abcdefghijkl', [])).toBe('Authorization: Bearer [redacted]');
  });
});

describe('StderrTail', () => {
  it('keeps the last lines, cuts long ones, and handles partial lines', () => {
    const tail = new StderrTail(3, 10);
    tail.push('one\ntwo\nthr');
    expect(tail.snapshot()).toEqual(['one', 'two', 'thr']);
    tail.push('ee\nfour\n' + 'x'.repeat(25) + '\n');
    expect(tail.snapshot()).toEqual(['three', 'four', 'xxxxxxxxxx... (15 more characters)']);
    expect(tail.lastLine()).toBe('xxxxxxxxxx... (15 more characters)');
  });
});
