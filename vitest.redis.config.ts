import { defineConfig } from 'vitest/config';

// Real-engine tests: real redis-server processes on free loopback ports
// (`npm run test:redis`, after `npm test` in .ci/run). One file at a time:
// the machine has two cores and each run starts up to eight servers.
export default defineConfig({
  test: {
    include: ['src/**/*.redis.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    fileParallelism: false,
    pool: 'forks',
  },
});
