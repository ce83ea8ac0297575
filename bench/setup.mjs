// Runs before `npm run bench` (npm's prebench hook): in a fresh clone it installs the
// dependencies the benchmarks need (the app's, plus node-pty, @xterm/headless and tsx from the
// devDependencies) with `npm ci`; with them in place it does nothing.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const needed = ['esbuild', 'tsx', 'node-pty', '@xterm/headless', 'ink', 'react', '@modelcontextprotocol/client'];

/** Packages not installed (looked up as files: some packages do not export their package.json). */
function missing() {
  return needed.filter((name) => !existsSync(path.join(root, 'node_modules', ...name.split('/'), 'package.json')));
}

const absent = missing();
if (absent.length > 0) {
  process.stderr.write(`bench: installing dependencies (missing: ${absent.join(', ')})\n`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write('bench: npm ci failed\n');
    process.exit(result.status ?? 1);
  }
}
