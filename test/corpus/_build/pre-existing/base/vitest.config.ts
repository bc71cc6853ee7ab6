import AllureVitestReporter from 'allure-vitest/reporter';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', new AllureVitestReporter({ resultsDir: 'allure-results' })],
  },
});
