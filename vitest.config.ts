import { defineConfig } from 'vitest/config';

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
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.tsx'],
          // Unit tests keep no state between files (no module mocks, stubbed globals or
          // module-level caches they rely on being fresh), so a worker runs file after file with
          // the modules it has already loaded. A fresh process and module graph per file cost
          // more than the tests themselves: about 0.5 s per file, ~100 files.
          isolate: false,
        },
      },
      {
        test: {
          ...shared,
          name: 'app',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/unit/**', '**/node_modules/**'],
          // Component tests mock modules and set colour levels and stores at module level; the
          // end-to-end and integration tests start servers and processes: each file keeps its
          // own process and module graph.
          isolate: true,
        },
      },
    ],
  },
});
