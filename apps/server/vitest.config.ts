import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one template per run; each file's database is a copy of it (test/helper.ts).
    globalSetup: ['test/global-setup.ts'],
    // Each file builds its own app on its own database; two workers match the two cores here.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
