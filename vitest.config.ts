import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'test/fixtures/**', 'test/corpus/**'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Browser tests start Chromium; two cores do not take many at once.
    maxWorkers: 2,
  },
});
