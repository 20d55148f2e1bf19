import { randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { openDatabase } from '../apps/server/src/db/connection';
import { benchAdminApp } from './bench-admin-app';

/**
 * `npm run bench:imports-small [-- --rows 10,500,2000 --rounds 5]`: member files and bulk-credit files of a
 * few rows each on a large programme (the `bench:dataset` database at BENCH_DATABASE_URL, e.g. 1,000,000
 * cards), through the real app (`buildApp` + `inject`): a member file of new client IDs with opening points,
 * then a bulk-credit file on the same client IDs; the median of `--rounds` of each, per size. What a person
 * importing a handful of members waits for, where `bench:imports` measures the 100,000-row file.
 * Writes what it imports (new accounts `SMALL-…`), so each run adds to the dataset.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { rows: { type: 'string', default: '10,500,2000' }, rounds: { type: 'string', default: '5' } },
  });
  const sizes = values.rows.split(',').map(Number);
  const rounds = Number(values.rounds);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';
  const handle = await openDatabase({ databaseUrl: url });
  try {
    const { n } = await handle.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(`${n} accounts; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)}`);
    const { app, headers } = await benchAdminApp(handle.db);
    const post = async (kind: 'accounts' | 'accruals', lines: string[]) => {
      const t0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/imports/${kind}?dryRun=false`,
        headers: { ...headers, 'content-type': 'text/csv' },
        payload: `${lines.join('\n')}\n`,
      });
      const ms = performance.now() - t0;
      if (res.statusCode !== 200 || res.json().failed !== 0)
        throw new Error(`${kind}: ${res.statusCode} ${res.body}`);
      return ms;
    };
    const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
    for (const size of sizes) {
      const members: number[] = [];
      const credits: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const tag = randomUUID().slice(0, 8);
        const ids = Array.from({ length: size }, (_, i) => `SMALL-${tag}-${i}`);
        members.push(
          await post('accounts', ['clientId,points,reason', ...ids.map((id) => `${id},5,Opening`)]),
        );
        credits.push(
          await post('accruals', ['clientId,points,reason', ...ids.map((id) => `${id},2,Goodwill`)]),
        );
      }
      const list = (times: number[]) => times.map((t) => t.toFixed(0)).join(', ');
      console.log(
        `${size}-row files: members median ${median(members).toFixed(0)} ms [${list(members)}], ` +
          `bulk credits median ${median(credits).toFixed(0)} ms [${list(credits)}]`,
      );
    }
    await app.close();
  } finally {
    await handle.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
