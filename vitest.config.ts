import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites share the PostgreSQL and MariaDB servers of .ci/run: one file at a time.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI reads the last line of the run: `N passed, N failed[, N skipped]`.
    reporters: ['default', './test/reporters/summary.ts'],
  },
});
