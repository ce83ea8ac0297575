import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));
const TEST_FILE = /\.test\.tsx?$/;

// Test files run one after another in a worker that keeps the modules it has loaded: a fresh
// process and module graph per file (vitest's default) cost more than most files' tests (0.3-3 s
// each, ~275 files). A file that changes what a module sees when it loads (an environment variable
// such as FORCE_COLOR, vi.mock, vi.stubEnv, vi.stubGlobal), or that checks what a module does on
// first use, or that is known to need it (the marker below), gets a fresh module graph in a process
// of its own. Sharing covers the files that start servers, pseudo-terminals and the built app too:
// what they share is the helpers' modules, and each file stops what it started (BENCHMARKS.md,
// "How long", has the measurements).
const NEEDS_FRESH_MODULES = [
  /process\.env\.[A-Za-z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env/,
  /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/,
  /runs in its own process \(vitest\.config\.ts\)/,
];

function testFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => TEST_FILE.test(file))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);
}

const ownProcess = testFiles('test').filter((file) => {
  const text = readFileSync(path.join(root, file), 'utf8');
  return NEEDS_FRESH_MODULES.some((pattern) => pattern.test(text));
});

const shared = {
  // Child processes (pseudo-terminals, stdio MCP servers) are safer in forked workers than in threads.
  pool: 'forks' as const,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Four workers on a two-core machine: most of a test's time is spent waiting for the processes
    // it drives (the built app, stdio servers, the scripted model). With three, the suite used 1.6
    // of the two cores and took 302 s; with four, 248 s (five: 224 s, with more of every file's
    // time spent waiting for a core; BENCHMARKS.md "This round: four test workers").
    maxWorkers: 4,
    reporters: ['default'],
    // The files that need a process of their own are few and start first; vitest orders the rest
    // longest first (by the last run's times when it has them, by size on a clean checkout).
    projects: [
      ...(ownProcess.length > 0 ? [{ test: { ...shared, name: 'isolated-modules', include: ownProcess, isolate: true } }] : []),
      {
        test: {
          ...shared,
          name: 'shared-modules',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['**/node_modules/**', ...ownProcess],
          isolate: false,
        },
      },
    ],
  },
});
