import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites share the PostgreSQL and MariaDB servers of .ci/run: one file at a time.
    fileParallelism: false,
    // One process for every file instead of a fresh one each: loading the library, its drivers
    // and the frameworks again for each of ~190 files took a fifth of a run (import 268 s of
    // 1,505 s on Node 20 in .ci/run; the whole suite 14 min → 10 min alone). So a file must not
    // depend on module state another file left behind, nor leave any that changes another's result.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // CI reads the last line of the run: `N passed, N failed[, N skipped]`.
    reporters: ['default', './test/reporters/summary.ts'],
  },
});
