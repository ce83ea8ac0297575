import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { dropAfter, errorReply, hangReply, stallAfter, textReply } from '../helpers/scripted-broker';
import { keys } from '../helpers/terminal';
import { ask, sessionRecords, startApp, waitForSettled } from '../security/helpers/app';

// The model's server misbehaving, through the built binary: each fault leaves a clear message on
// screen, and the conversation stays valid — the session log holds every message in order and the
// next request the server receives is a well-formed history (roles alternate, nothing lost).

const { broker, track } = useBrokerAndTerminals();

/** Roles of a request's messages, system prompt first. */
const rolesOf = (messages: Array<{ role: string }>) => messages.map((message) => message.role);

function expectAlternating(roles: string[]) {
  expect(roles[0]).toBe('system');
  for (let index = 2; index < roles.length; index++) expect(roles[index], `message ${index} of ${roles.join(',')}`).not.toBe(roles[index - 1]);
}

describe('faults of the model server', () => {
  it('a dropped stream, a 500, a 429 with Retry-After, no first byte, a stall: each is shown, nothing is lost', async () => {
    const term = track(startApp({ broker, rows: 60, config: { broker: { firstByteTimeoutMs: 1500, idleTimeoutMs: 1500, maxRetries: 1 } } }));
    await term.waitFor('idle', 20_000);
    const from = broker.requests.length;

    // 1. The connection drops in the middle of the answer: the text so far stays, marked incomplete.
    broker.enqueue(dropAfter(textReply('alpha beta gamma delta epsilon', { chunkSize: 6 }), 3));
    await ask(term, 'first question');
    let screen = await waitForSettled(term, /the connection to scripted broke during the answer/);
    expect(screen).toContain('alpha beta g');

    // 2. HTTP 500, also on the retry: no answer at all, so the question is taken back into the input.
    broker.enqueue(errorReply(500, { error: { message: 'upstream exploded' } }), errorReply(500, { error: { message: 'upstream exploded' } }));
    await ask(term, 'second question');
    screen = await waitForSettled(term, /✗ HTTP 500: upstream exploded/, 15_000);
    expect(screen).toMatch(/HTTP 500: upstream exploded; retrying in 1s \(1\/1\)/);
    screen = await waitForSettled(term, /no answer: your message is back in the input/);
    expect(screen).toMatch(/│ ›\s+second question/);

    // 3. Enter sends it again: HTTP 429 with Retry-After, the wait is shown, then the answer arrives.
    broker.enqueue(errorReply(429, { error: { message: 'slow down' } }, { retryAfter: 1 }), textReply('rate limit passed'));
    term.write(keys.enter);
    screen = await waitForSettled(term, 'rate limit passed', 15_000);
    expect(screen).toMatch(/HTTP 429: slow down; retrying in 1s \(1\/1\)/);

    // 4. The server accepts the request and never sends a byte: taken back too; the user clears it.
    broker.enqueue(hangReply());
    await ask(term, 'fourth question');
    screen = await waitForSettled(term, /no answer from scripted at http:\/\/127\.0\.0\.1:\d+\/v1 within 1\.5s[\s│]*\(broker\.firstByteTimeoutMs\)/, 15_000);
    await term.waitFor(/│ ›\s+fourth question/);
    term.write(keys.ctrl('u'));
    await term.waitFor((text) => !/│ ›\s+fourth question/.test(text));

    // 5. The stream stalls half-way.
    broker.enqueue(stallAfter(textReply('half of it then silence', { chunkSize: 5 }), 3));
    await ask(term, 'fifth question');
    screen = await waitForSettled(term, /scripted sent nothing for 1\.5s in the middle of the answer; gave up/, 15_000);
    expect(screen).toContain('half of it');

    // The next request carries the whole conversation, well-formed.
    broker.enqueue(textReply('all good now'));
    await ask(term, 'sixth question');
    await term.waitFor('all good now');
    await term.waitFor(/idle/);
    const last = broker.requests.at(-1)!;
    const messages = last.body!.messages!;
    expectAlternating(rolesOf(messages));
    const text = messages.map((message) => String(message.content ?? '')).join('\n');
    for (const part of ['first question', 'alpha beta g', 'second question', 'rate limit passed', 'fifth question', 'half of', 'sixth question']) {
      expect(text).toContain(part);
    }
    // Once each: the question that failed went again only when the user sent it again.
    expect(text.split('second question')).toHaveLength(2);
    expect(text).not.toContain('fourth question');
    // 1 + 2 (500 and its retry) + 2 (429, then the answer) + 1 (hang) + 1 (stall) + 1.
    expect(broker.requests.length - from).toBe(8);

    // The session log holds every message as it happened, in order, with the unfinished answers
    // marked and the questions that got no answer withdrawn.
    const logged = sessionRecords(term.home)
      .filter((record) => record.type !== 'session')
      .map((record) => (record.type === 'withdrawn' ? ['withdrawn'] : [record.message!.role, (record.message!.content ?? '').slice(0, 14), record.message!.finishReason ?? '']));
    expect(logged).toEqual([
      ['user', 'first question', ''],
      ['assistant', 'alpha beta g', 'error'],
      ['user', 'second questio', ''],
      ['withdrawn'],
      ['user', 'second questio', ''],
      ['assistant', 'rate limit pas', 'stop'],
      ['user', 'fourth questio', ''],
      ['withdrawn'],
      ['user', 'fifth question', ''],
      ['assistant', 'half of it', 'error'],
      ['user', 'sixth question', ''],
      ['assistant', 'all good now', 'stop'],
    ]);
  }, 90_000);

  it('HTTP 401 with an HTML page: one readable line, no markup, no key', async () => {
    const page = '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n';
    const term = track(startApp({ broker, model: { apiKey: 'sk-fault-test-key-123456' }, config: { broker: { maxRetries: 0 } } }));
    await term.waitFor('idle', 20_000);
    broker.enqueue(errorReply(401, page, { contentType: 'text/html' }));
    await ask(term, 'are you there');
    const screen = await waitForSettled(term, /HTTP 401: 401 Authorization Required \(HTML page\)/);
    // A key was sent: the hint names where it came from instead of asking whether one is needed.
    expect(screen).toContain('(the server rejected the key from');
    expect(screen).not.toMatch(/<html|<title|<center|nginx/);
    expect(term.raw).not.toContain('sk-fault-test-key-123456');
    // Not marked withdrawn until something new is written: quitting now loses nothing.
    expect(sessionRecords(term.home).map((record) => record.message?.role ?? record.type)).toEqual(['session', 'user']);
  }, 30_000);
});
