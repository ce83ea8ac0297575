import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/client';
import { DISPATCH_FAILED } from './texts';
import type { ElicitationHandler, UrlElicitation } from './types';

// A call answered with a URL-required error (-32042, MCP 2025-11-25): the server needs the user to
// open a page first (a consent, a sign-in at a third party). Each URL is offered to the user like
// a URL elicitation; once the user opened them, the call runs once more when the user says so or
// the server says the pages are done (askToRetry). Otherwise the model is told which URLs were
// opened and that calling the tool again is what comes next.

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

/** Offers each URL in turn; says which the user opened and the text for the model. */
export async function offerRequiredUrls(urls: UrlElicitation[], elicit: ElicitationHandler, signal: AbortSignal | undefined): Promise<{ opened: UrlElicitation[]; text: string }> {
  const lines: string[] = [];
  const opened: UrlElicitation[] = [];
  for (const request of urls) {
    const answer = await elicit(request, signal ?? new AbortController().signal);
    if (answer.action === 'accept') opened.push(request);
    lines.push(`${request.url}: ${answer.action === 'accept' ? 'the user opened it' : answer.action === 'decline' ? 'the user declined to open it' : 'the user dismissed it'}`);
  }
  const text = `${DISPATCH_FAILED}the server needs the user to open ${urls.length === 1 ? 'a URL' : 'URLs'} first (URL required, -32042): ${lines.join('; ')}.${opened.length > 0 ? ' Once the user has finished there, call the tool again.' : ''}`;
  return { opened, text };
}

/**
 * After the user opened the pages: asks whether to run the call once more (the spec's retry after
 * a URL-required error). The server's `notifications/elicitation/complete` for the opened pages
 * answers yes on the user's behalf: they opened the pages to get the call through.
 */
export async function askToRetry(tool: string, opened: UrlElicitation[], elicit: ElicitationHandler, signal: AbortSignal | undefined): Promise<boolean> {
  const first = opened[0]!;
  const answer = await elicit(
    {
      mode: 'url',
      alias: first.alias,
      url: first.url,
      message: `You opened ${opened.length === 1 ? 'the page' : `${opened.length} pages`} the call needs.`,
      elicitationId: first.elicitationId,
      fromError: true,
      retry: { tool, waitFor: opened.flatMap((request) => (request.elicitationId ? [request.elicitationId] : [])) },
    },
    signal ?? new AbortController().signal,
  );
  return answer.action === 'accept';
}
