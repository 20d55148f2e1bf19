import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Migrates one template per run; each file's database is a copy of it (test/helper.ts).
    globalSetup: ['test/global-setup.ts'],
    // Before each file: empties process-wide caches of database data (files share a process, not a database).
    setupFiles: ['test/per-file-setup.ts'],
    // Two workers match the two cores here. Each worker runs its files one after another in one process
    // (no per-file isolation): the app's modules load once per worker instead of once per file, and the worker's
    // PGlite is reset to the template for the next file instead of booted again (test/pglite-pool.ts). Every
    // file still builds its own app and gets a database in the template's state; files share no rows.
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    // Upper bounds for a failure, not waits: a test passes as soon as it is done. At load 30–40 on the two
    // cores (other suites beside this one) the PostgreSQL tier's 200-request races took over 30 s, so a
    // loaded machine must not turn slowness into a red run.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
