// Runs the built binary (`node scripts/build.mjs` first) in headless mode, as a script would.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLI, makeScratchHome, testEnv } from '../../helpers/terminal';

export interface HeadlessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
}

export interface HeadlessRunOptions {
  input?: string;
  home?: string;
  /** Written as the scratch home's config.json. */
  config?: unknown;
  env?: Record<string, string>;
  onStdout?: (text: string, child: ReturnType<typeof spawn>) => void;
}

/** `aish-tui <args>` with a scratch HOME; resolves when it exits. Asynchronous: the scripted broker answers from this process. */
export function runAish(args: string[], options: HeadlessRunOptions = {}): Promise<HeadlessRun> {
  const home = options.home ?? makeScratchHome('aish-headless-');
  if (options.config !== undefined) {
    mkdirSync(path.join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'aish', 'config.json'), JSON.stringify(options.config));
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(home, options.env), cwd: home });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => {
      stdout += data.toString();
      options.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, home });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The lines of a stream-json run, parsed. */
export function streamLines(stdout: string): Array<Record<string, unknown>> {
  return stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
}
