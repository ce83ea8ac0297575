import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { DISPATCH_FAILED } from './texts';
import type { ElicitationHandler, UrlElicitation } from './types';

// A call answered with a URL-required error (-32042, MCP 2025-11-25): the server needs the user to
// open a page first (a consent, a sign-in at a third party). Each URL is offered to the user like
// a URL elicitation; the call itself is not retried on its own (the page may take a while): the
// model is told which URLs were opened and that calling the tool again is what comes next.

export function urlElicitationsOf(error: unknown, alias: string): UrlElicitation[] | undefined {
  if (!ProtocolError.isInstance(error) || error.code !== ProtocolErrorCode.UrlElicitationRequired) return undefined;
  const listed = (error.data as { elicitations?: unknown } | undefined)?.elicitations;
  if (!Array.isArray(listed)) return undefined;
  return listed.flatMap((item) => {
    const entry = item as Record<string, unknown>;
    if (typeof entry?.url !== 'string') return [];
    return [{ mode: 'url' as const, alias, url: entry.url, message: typeof entry.message === 'string' ? entry.message : '', elicitationId: typeof entry.elicitationId === 'string' ? entry.elicitationId : '', fromError: true }];
  });
}

/** Offers each URL in turn; the text for the model says what the user did. */
export async function offerRequiredUrls(urls: UrlElicitation[], elicit: ElicitationHandler, signal: AbortSignal | undefined): Promise<string> {
  const lines: string[] = [];
  for (const request of urls) {
    const answer = await elicit(request, signal ?? new AbortController().signal);
    lines.push(`${request.url}: ${answer.action === 'accept' ? 'the user opened it' : answer.action === 'decline' ? 'the user declined to open it' : 'the user dismissed it'}`);
  }
  const opened = lines.some((line) => line.endsWith('opened it'));
  return `${DISPATCH_FAILED}the server needs the user to open ${urls.length === 1 ? 'a URL' : 'URLs'} first (URL required, -32042): ${lines.join('; ')}.${opened ? ' Once the user has finished there, call the tool again.' : ''}`;
}
