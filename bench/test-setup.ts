/**
 * `npm run bench:test-setup`: what one API test file pays for its database, the way test/helper.ts made it
 * before (a new database migrated from scratch) and now (a copy of the run's migrated template). Interleaved
 * samples in one process, so both see the same machine load:
 * - PGlite: `PGlite.create` + migrations, against `PGlite.create({ loadDataDir })` of a dumped template;
 * - PostgreSQL (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres): CREATE DATABASE +
 *   migrations, against CREATE DATABASE … TEMPLATE; each database dropped after its sample.
 * Environment: BENCH_SAMPLES (5).
 */
import { cpus, loadavg } from 'node:os';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import {
  buildPGliteTemplate,
  buildServerTemplate,
  urlOfDatabase,
  withAdminClient,
} from '../apps/server/test/test-database';

const samples = Number(process.env.BENCH_SAMPLES ?? 5);
const pgUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function timed(work: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

let counter = 0;
async function onServer(template?: string): Promise<void> {
  const name = `loyalty_bench_setup_${process.pid}_${counter++}`;
  await withAdminClient(pgUrl, (c) =>
    c.query(template ? `create database ${name} template ${template}` : `create database ${name}`),
  );
  const handle = await openDatabase({ databaseUrl: urlOfDatabase(pgUrl, name), poolSize: 2 });
  if (!template) await migrateToLatest(handle.db);
  await handle.close();
  await withAdminClient(pgUrl, (c) => c.query(`drop database ${name} with (force)`));
}

async function main() {
  const loadBefore = loadavg();
  const dump = await buildPGliteTemplate();
  const template = await buildServerTemplate(pgUrl, process.pid);
  const results: Record<string, number[]> = {
    'PGlite: create + migrate (before)': [],
    'PGlite: loadDataDir of the template (now)': [],
    'PostgreSQL: CREATE DATABASE + migrate (before)': [],
    'PostgreSQL: CREATE DATABASE … TEMPLATE (now)': [],
  };
  const runs: Array<[string, () => Promise<void>]> = [
    [
      'PGlite: create + migrate (before)',
      async () => {
        const h = await openDatabase({});
        await migrateToLatest(h.db);
        await h.close();
      },
    ],
    [
      'PGlite: loadDataDir of the template (now)',
      async () => {
        const h = await openDatabase({ loadDataDir: dump });
        await h.close();
      },
    ],
    ['PostgreSQL: CREATE DATABASE + migrate (before)', () => onServer()],
    ['PostgreSQL: CREATE DATABASE … TEMPLATE (now)', () => onServer(template)],
  ];
  try {
    for (let i = 0; i < samples; i++) for (const [name, work] of runs) results[name]?.push(await timed(work));
  } finally {
    await withAdminClient(pgUrl, (c) => c.query(`drop database if exists ${template} with (force)`));
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(
    `${cpus().length} cores (${cpus()[0]?.model}), Node ${process.version}, ${samples} samples each`,
  );
  console.log(
    `load average before: ${loadBefore.map((l) => l.toFixed(1)).join(' / ')}; after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')}`,
  );
  console.log("| one test file's database | median s | min s |");
  console.log('|---|---:|---:|');
  for (const [name, xs] of Object.entries(results))
    console.log(`| ${name} | ${(median(xs) / 1000).toFixed(2)} | ${(Math.min(...xs) / 1000).toFixed(2)} |`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
