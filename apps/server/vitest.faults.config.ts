import { defineConfig } from 'vitest/config';

/**
 * The fault tier (`npm run test:faults`): real servers as child processes on a real PostgreSQL, killed,
 * raced and cut off from their database. One file at a time: each starts its own servers (ports
 * 3340–3359, private PostgreSQL 5440–5459) and loads the machine on purpose.
 */
export default defineConfig({
  test: {
    include: ['faults/**/*.fault.test.ts'],
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
