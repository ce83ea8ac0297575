import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = path.dirname(fileURLToPath(import.meta.url));
const TEST_FILE = /\.test\.tsx?$/;

// Unit and component files run one after another in a worker that keeps the modules it has
// loaded: a fresh process and module graph per file (vitest's default) cost more than most of
// these files' tests (0.3-3 s each, ~145 files). A file that changes what a module sees when it
// loads (an environment variable such as FORCE_COLOR, vi.mock, vi.stubEnv, vi.stubGlobal), or that
// checks what a module does on first use, needs a fresh module graph: it is found here by what it
// does, or says so with the marker below, and runs in a process of its own like the integration,
// end-to-end, security and fault tests. Those start servers and processes; integration files
// sharing a worker broke `mcp login` in test/integration/mcp/sign-in.test.ts when it ran after
// other MCP files, so they keep their own.
const NEEDS_FRESH_MODULES = [
  /process\.env\.[A-Za-z_]+ *=[^=]|process\.env\[[^\]]+\] *=[^=]|delete process\.env/,
  /\bvi\.(mock|doMock|stubEnv|stubGlobal)\(/,
  /runs in its own process \(vitest\.config\.ts\)/,
];
const SHARED_FOLDERS = ['test/unit', 'test/component'];

function testFiles(folder: string): string[] {
  return readdirSync(path.join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => TEST_FILE.test(file))
    .map((file) => `${folder}/${file.split(path.sep).join('/')}`);
}

const ownProcess = SHARED_FOLDERS.flatMap(testFiles).filter((file) => {
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
    // The machine has two cores; end-to-end tests each drive a real process.
    maxWorkers: 2,
    reporters: ['default'],
    // Project names decide the order: vitest runs the projects' files by name, so the isolated
    // project, which holds the slowest files (end-to-end, security), starts first and the many
    // short unit files fill the end.
    projects: [
      {
        test: {
          ...shared,
          name: 'isolated',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['**/node_modules/**', ...SHARED_FOLDERS.map((folder) => `${folder}/**`)],
          isolate: true,
        },
      },
      ...(ownProcess.length > 0 ? [{ test: { ...shared, name: 'isolated-modules', include: ownProcess, isolate: true } }] : []),
      {
        test: {
          ...shared,
          name: 'shared-modules',
          include: SHARED_FOLDERS.flatMap((folder) => [`${folder}/**/*.test.ts`, `${folder}/**/*.test.tsx`]),
          exclude: ['**/node_modules/**', ...ownProcess],
          isolate: false,
        },
      },
    ],
  },
});
