import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    // Child processes (pseudo-terminals, stdio MCP servers) are safer in forked workers than in threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The machine has two cores; end-to-end tests each drive a real process.
    maxWorkers: 2,
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
