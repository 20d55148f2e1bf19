import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  buildPGliteTemplate,
  buildServerTemplate,
  dropLeftoverDatabases,
  serverUrl,
  withAdminClient,
} from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The pid of the run, part of every test database's name (see test-database.ts). */
    testRunPid: number;
    /** PostgreSQL tier: the migrated template database each file clones. */
    templateDatabase?: string;
    /** PGlite tier: a tar of a migrated data folder each file loads. */
    templateDataDir?: string;
  }
}

/**
 * Migrates once per run; every test file then starts from a copy of the result instead of migrating its own
 * database (helper.ts). The template is removed after the run.
 */
export default async function setup(project: TestProject) {
  const runPid = process.pid;
  project.provide('testRunPid', runPid);
  const base = serverUrl();
  if (base) {
    const dropped = await dropLeftoverDatabases(base);
    if (dropped.length > 0)
      console.info(`dropped ${dropped.length} leftover test database(s) of killed runs`);
    const template = await buildServerTemplate(base, runPid);
    project.provide('templateDatabase', template);
    return async () => {
      await withAdminClient(base, (c) => c.query(`drop database if exists ${template} with (force)`));
    };
  }
  const file = join(tmpdir(), `loyalty-test-template-${runPid}.tar`);
  const dump = await buildPGliteTemplate();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('templateDataDir', file);
  return () => rmSync(file, { force: true });
}
