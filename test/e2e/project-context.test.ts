import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { CLI, keys, makeScratchHome, sleep, TerminalSession, testEnv, writeHomeConfig } from '../helpers/terminal';

// The working directory's project (README.md, "Project context"): AGENTS.md files from the
// repository root down join the system prompt; `.aish/config.*` is used once the directory is trusted.
const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** A home with a user config, and a repository in it: root AGENTS.md, sub/AGENTS.md, sub/.aish/config.json. */
function project(): { home: string; repo: string; sub: string } {
  const home = makeScratchHome('aish-project-');
  homes.push(home);
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted' });
  const repo = path.join(home, 'repo');
  const sub = path.join(repo, 'pkg', 'sub');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(path.join(sub, '.aish'), { recursive: true });
  writeFileSync(path.join(repo, 'AGENTS.md'), '# Root rules\nUse tabs.\u200b\x1b[31m\n');
  writeFileSync(path.join(sub, 'AGENTS.md'), 'Sub rules: run make test.\n');
  writeProjectConfig(sub, 'projected');
  return { home, repo, sub };
}

function writeProjectConfig(dir: string, model: string): void {
  const mcp = { servers: { helper: { command: 'echo', args: ['from-project'], disabled: true } } };
  writeFileSync(path.join(dir, '.aish', 'config.json'), JSON.stringify({ models: { [model]: { baseUrl: broker.url, model } }, defaultModel: model, mcp }));
}

function aish(args: string[], home: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(home), cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end('');
  });
}

const chats = () => broker.requests.filter((request) => request.path.endsWith('/chat/completions'));
const lastSystemPrompt = () => String(chats().at(-1)!.body!.messages!.find((message) => message.role === 'system')?.content ?? '');

describe('end to end: project context', () => {
  it('headless: AGENTS.md from the repository root down, cleaned; an untrusted project config is not used (said on stderr) unless --trust-project', async () => {
    const { home, sub } = project();
    const plain = await aish(['-p', 'hello'], home, sub);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('project config ~/repo/pkg/sub/.aish/config.json not used: this directory is not trusted yet');
    expect(chats().at(-1)!.body!.model).toBe('scripted');
    const system = lastSystemPrompt();
    expect(system).toContain('Use tabs.');
    expect(system).toContain('Sub rules: run make test.');
    expect(system.indexOf('Use tabs.')).toBeLessThan(system.indexOf('Sub rules'));
    expect(system).not.toContain('\u200b');
    expect(system).not.toContain('\x1b');

    const trusted = await aish(['-p', 'hello', '--trust-project'], home, sub);
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain('not used');
    expect(chats().at(-1)!.body!.model).toBe('projected');
  });

  it('the TUI asks before using a project config, remembers the answer, asks again when the file changed; :context lists AGENTS.md', async () => {
    const { home, sub } = project();
    const first = track(new TerminalSession({ home, cwd: sub, cols: 110, rows: 30 }));
    await first.waitFor('Trust ~/repo/pkg/sub and use it? [y/N]');
    // What it would start is named before the answer (read from the JSON, nothing run).
    expect(await first.screen()).toContain('helper: runs echo from-project');
    first.write('y\r');
    await first.waitFor(/projected · idle/);
    await first.typeSlowly(':context');
    first.write(keys.enter);
    await first.waitFor('project instructions in the system prompt');
    const screen = await first.screen();
    expect(screen).toMatch(/\.\.\/\.\.\/AGENTS\.md\s+\d+ characters/);
    expect(screen).toMatch(/\n\s*AGENTS\.md\s+\d+ characters/);
    expect(screen).toContain('project config in use: .aish/config.json');
    await first.dispose();

    // Trusted: no question.
    const second = track(new TerminalSession({ home, cwd: sub, cols: 110, rows: 30 }));
    await second.waitFor(/projected · idle/);
    expect(second.raw).not.toContain('[y/N]');
    await second.dispose();

    // Changed: asked again; a no leaves the user's own config.
    writeProjectConfig(sub, 'changed');
    const third = track(new TerminalSession({ home, cwd: sub, cols: 110, rows: 30 }));
    await third.waitFor('changed since you trusted');
    third.write('n\r');
    await third.waitFor(/scripted · idle/);
    await third.waitFor('not used: you did not trust');
    await sleep(50);
  });
});
