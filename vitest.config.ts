import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Refuses to start when dist/ is not the build of today's sources (the tests run dist/).
    globalSetup: ['test/helpers/fresh-build.ts'],
    setupFiles: ['test/helpers/setup-env.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Process tests spawn real programs; two cores are shared with them.
    maxWorkers: 2,
  },
});
