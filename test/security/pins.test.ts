import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { sleep } from '../helpers/terminal';
import { ask, FRAME_DELAY_MS, hostileServer, prepareHome, startApp, stateDir, waitForSettled } from './helpers/app';
import { runHeadless } from './helpers/headless';

// docs/ARCHITECTURE.md, Security invariants 4: a tool's definition is pinned per server on first sight (<stateDir>/pins.json,
// 0600). When the server changes it — announced with list_changed in the middle of a session, or
// between two sessions — the approvals given for the old definition stop applying until the user
// allows the new one once, and the frame says what changed. Annotations never grant anything.

const { broker, track } = useBrokerAndTerminals();

/** "echo <word>" calls the echo tool, "mutate" calls mutate; after a result the model says so. */
function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply(`finished: ${String(request.body?.messages?.at(-1)?.content).split('\n')[0]}`);
  const text = lastUserText(request);
  const echo = /^echo (\w+)/.exec(text);
  if (echo) return toolCallReply([{ name: 'hostile__echo', arguments: { text: echo[1] }, id: `call_${request.index}` }]);
  if (text === 'mutate') return toolCallReply([{ name: 'hostile__mutate', arguments: {}, id: `call_${request.index}` }]);
  return textReply('?');
}

const plainServer = (variant = '1') => hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_VARIANT: variant });

describe('pinned tool definitions', () => {
  it('TUI: a tool changed by list_changed loses its config approval, the frame says what changed, one approval restores it', async () => {
    broker.route(route);
    const term = track(startApp({ broker, servers: { hostile: plainServer() }, mcp: { autoApprove: { hostile__echo: true, hostile__mutate: true } } }));
    await term.waitFor('mcp 1/1', 20_000);

    await ask(term, 'echo one');
    let screen = await waitForSettled(term, 'finished: result plain');
    expect(screen).toMatch(/auto-approved by config mcp\.autoApprove hostile__echo/);
    expect(screen).not.toContain('Run this tool?');

    // The server rewrites echo's description and announces it.
    await ask(term, 'mutate');
    screen = await waitForSettled(term, /hostile__echo: description changed since it was first seen or last[\s\S]*?approved; it asks before running again/, 10_000);

    await ask(term, 'echo two');
    const frame = await waitForSettled(term, 'Run this tool?');
    expect(frame).toContain('▲ This tool changed since it was first seen or last approved:');
    expect(frame).toContain('description changed');
    expect(frame).toContain('Echo, changed at run time');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor((text) => (text.match(/finished: result plain/g) ?? []).length >= 2, 10_000);

    // Allowed once: the new definition is pinned, the config rule applies again.
    await ask(term, 'echo three');
    screen = await waitForSettled(term, (text) => (text.match(/finished: result plain/g) ?? []).length >= 3, 10_000);
    expect(screen).not.toContain('Run this tool?');
    expect(screen).toMatch(/hostile__echo \{"text":"three"\}.*\n.*auto-approved by config mcp\.autoApprove hostile__echo/);

    const pins = path.join(stateDir(term.home), 'pins.json');
    expect(statSync(pins).mode & 0o777).toBe(0o600);
  }, 60_000);

  it('headless, between sessions: a changed tool is denied with the reason, --accept-changed-tools re-pins it; annotations grant nothing', async () => {
    broker.route(route);
    const home = prepareHome({ broker, servers: { hostile: plainServer('1') } });
    const json = (stdout: string) => JSON.parse(stdout) as { tool_calls: Array<{ decision: string; result: string }> };
    const run = async (variant: string, extra: string[] = []) => {
      prepareHome({ broker, home, servers: { hostile: plainServer(variant) } });
      return runHeadless(['-p', 'echo hi', '--output-format', 'json', ...extra], { home });
    };

    // echo says readOnlyHint, idempotent, not destructive: still nothing runs without a rule.
    const unruled = await run('1');
    expect(json(unruled.stdout).tool_calls[0]).toMatchObject({ decision: 'denied' });
    expect(unruled.stderr).toContain('tool call hostile__echo denied: no rule allows it');

    const first = await run('1', ['--auto-approve', 'hostile__echo']);
    expect(json(first.stdout).tool_calls[0]).toMatchObject({ decision: 'allowed' });

    // The server's next version describes echo differently.
    const changed = await run('2', ['--auto-approve', 'hostile__echo']);
    expect(json(changed.stdout).tool_calls[0]).toMatchObject({ decision: 'denied' });
    expect(json(changed.stdout).tool_calls[0]!.result).toContain('its definition changed since it was first seen or last approved (description changed)');
    expect(changed.stderr).toContain('tool call hostile__echo denied: its definition changed since it was first seen or last approved (description changed); allow it once in aish-tui or pass --accept-changed-tools');

    const accepted = await run('2', ['--auto-approve', 'hostile__echo', '--accept-changed-tools']);
    expect(json(accepted.stdout).tool_calls[0]).toMatchObject({ decision: 'allowed' });
    expect(accepted.stderr).toContain('hostile__echo: description changed since it was first seen; accepted (--accept-changed-tools)');

    const after = await run('2', ['--auto-approve', 'hostile__echo']);
    expect(json(after.stdout).tool_calls[0]).toMatchObject({ decision: 'allowed' });
  }, 60_000);
});
