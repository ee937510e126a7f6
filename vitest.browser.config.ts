import { defineConfig } from 'vitest/config';

/**
 * `npm run test:browser`: the calendar page in headless Chromium (test/browser), apart from
 * `npm test` (it starts the example server and a browser). The last line is CI's summary line.
 */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/reporters/summary.ts'],
  },
});
