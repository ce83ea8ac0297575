import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand, type RunEvent, type RunOptions } from '../../../src/services/shell/run';

async function collect(options: Partial<RunOptions> & { command: string }) {
  const events: RunEvent[] = [];
  for await (const event of runCommand({ timeoutMs: 10_000, maxOutputBytes: 64 * 1024, shell: '/bin/sh', ...options })) events.push(event);
  const output = events.flatMap((event) => (event.type === 'output' ? [event.chunk] : [])).join('');
  const exit = events.at(-1);
  if (!exit || exit.type !== 'exit') throw new Error('no exit event last');
  return { output, exit, events };
}

/** Running, as opposed to gone or a zombie waiting for a parent that is not us to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

describe('shell runner', () => {
  it('merges stdout and stderr in the order they were written and keeps the exit code', async () => {
    const { output, exit } = await collect({ command: 'echo one; echo two >&2; echo three; exit 3' });
    expect(output).toBe('one\ntwo\nthree\n');
    expect(exit).toMatchObject({ exitCode: 3, timedOut: false, cancelled: false, truncated: false });
  });

  it('runs in the given directory through the given shell, with no stdin', async () => {
    const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'aish-run-')));
    const { output } = await collect({ command: 'pwd; echo "$0"; cat; echo end', cwd: dir });
    expect(output).toBe(`${dir}\n/bin/sh\nend\n`);
  });

  it('uses $SHELL from the environment when no shell is configured', async () => {
    const { output } = await collect({ command: 'echo $0', shell: undefined, env: { ...process.env, SHELL: '/bin/bash' } });
    expect(output.trim()).toBe('/bin/bash');
  });

  it('caps the output and counts what it dropped, without stopping the command', async () => {
    const { output, exit } = await collect({ command: 'head -c 5000 /dev/zero | tr "\\0" a; echo; echo done >&2', maxOutputBytes: 1000 });
    expect(output).toBe('a'.repeat(1000));
    expect(exit).toMatchObject({ exitCode: 0, truncated: true, droppedBytes: 4006 });
  });

  it('does not split a multi-byte character at the cap boundary or across reads', async () => {
    const { output } = await collect({ command: "printf 'é%.0s' $(seq 1 50)", maxOutputBytes: 11 });
    expect(output).toBe('ééééé');
  });

  it('times out and kills the whole process group, children included', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-run-'));
    const pidFile = path.join(dir, 'pid');
    const { exit, output } = await collect({ command: `sleep 30 & echo $! > ${pidFile}; echo started; wait`, timeoutMs: 300, killGraceMs: 200 });
    expect(output).toBe('started\n');
    expect(exit.timedOut).toBe(true);
    expect(exit.exitCode).toBeNull();
    const child = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(isRunning(child)).toBe(false);
  });

  it('an abort stops the command at once and reports it as cancelled', async () => {
    const controller = new AbortController();
    const events: RunEvent[] = [];
    for await (const event of runCommand({ command: 'echo ready; sleep 30', shell: '/bin/sh', timeoutMs: 60_000, maxOutputBytes: 1024, signal: controller.signal })) {
      events.push(event);
      if (event.type === 'output') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'exit', cancelled: true, timedOut: false, exitCode: null, signal: 'SIGTERM' });
  });

  it('a shell that cannot start is an exit event with the reason, not an exception', async () => {
    const { exit } = await collect({ command: 'true', shell: '/nonexistent/shell' });
    expect(exit.exitCode).toBe(127);
    const { output } = await collect({ command: 'true', shell: '/nonexistent/shell' });
    expect(output).toContain('/nonexistent/shell');
  });
});
