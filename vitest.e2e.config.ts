import { defineConfig } from 'vitest/config';

// Browser end-to-end tests: the built app served by `vite preview`, driven in
// Debian's Chromium by playwright-core (see e2e/README.md).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['e2e/support/globalSetup.ts'],
    testTimeout: 180_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
