import { spawn } from 'node:child_process';
import { CLI, makeScratchHome, testEnv } from '../../helpers/terminal';

export interface HeadlessRun {
  code: number | null;
  stdout: string;
  stderr: string;
  home: string;
}

/** Runs the built binary with pipes, as a script would (the config is already in `home`). */
export function runHeadless(args: string[], options: { home?: string; input?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<HeadlessRun> {
  const home = options.home ?? makeScratchHome('aish-sec-headless-');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(home, options.env), cwd: home });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, home });
    });
    child.stdin.end(options.input ?? '');
  });
}
