import { describe, expect, it } from 'vitest';
import { describeError, redact } from '../../../src/services/mcp/errors';
import { base64Size, flattenResult } from '../../../src/services/mcp/flatten';
import { StderrTail } from '../../../src/services/mcp/stderr';
import { SdkError, SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';

describe('flattenResult (seed §4)', () => {
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
    expect(redact('token sk-abcdef123 rejected', ['sk-abcdef123'])).toBe('token *** rejected');
    expect(redact('Authorization: Bearer abcdefghijkl', [])).toBe('Authorization: Bearer ***');
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
