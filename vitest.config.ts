import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/sdk/test/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 3,
    // Test files share each worker's loaded modules: importing Fastify, PGlite and the app once per
    // worker rather than once per file. Files share no state: each opens its own server and database
    // (or its own projects in the shared PostgreSQL database) and closes them.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
