import { readLimited } from './body';
import { httpSend, type SendInit } from './http-post';

/**
 * A small document from the model's server, read whole up to a bound: the context-window probes
 * (`/props`, `/api/show`, `/models`, …), token counts (`/tokenize`) and the model list. Like the
 * chat request they go over node:http and its kept-alive connections (http-post.ts): the window
 * probe is the first request every start makes, while the servers are connecting, and as a fetch it
 * loaded undici and started its HTTP parser there, about 90-150 ms of CPU and 14 MB of memory
 * (BENCHMARKS.md).
 */
export interface TextAnswer {
  status: number;
  ok: boolean;
  text: string;
  /** The body was longer than `maxBytes`; only that much was read. */
  truncated: boolean;
}

export async function httpText(url: string, init: SendInit & { method: 'GET' | 'POST'; maxBytes: number }): Promise<TextAnswer> {
  const { maxBytes, ...request } = init;
  const answer = await httpSend(url, request);
  const { text, truncated } = await readLimited(answer, maxBytes);
  return { status: answer.status, ok: answer.ok, text, truncated };
}
