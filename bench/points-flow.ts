import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
// Imported for its side effect: the pg type parsers the app relies on (numeric → string, int8 → number).
import '../apps/server/src/db/connection';
import type { Database } from '../apps/server/src/db/schema';
import {
  lotsOutstanding,
  lotsOutstandingReference,
} from '../apps/server/src/modules/reports/outstanding.repository';
import { referenceFlowSource } from '../apps/server/src/modules/reports/points-flow.repository';
import { pointsFlow } from '../apps/server/src/modules/reports/points-flow.service';
import { benchAdminApp } from './bench-admin-app';

/**
 * `npm run bench:points-flow [-- --runs 60]`: p50/p95 of `GET /api/v1/reports/points-flow` through the real
 * app (`buildApp` + `inject`) on the database `bench:dataset` built, for the console's ranges, and in the
 * same run the same reports recomputed from the raw operations (`referenceFlowSource`): the anchor that
 * says what the rollup saves on this machine at this moment. Both answers are compared once (equal).
 */
function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function timed(runs: number, run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

async function main(): Promise<void> {
  // --reference-runs: timed runs of the raw recomputation (default runs / 6, at least 5). At 10M operations
  // one takes tens of seconds: 0 times only the run that checks the answer (no warm-up).
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '60' }, 'reference-runs': { type: 'string' } },
  });
  const runs = Number(values.runs);
  const referenceRuns = Number(values['reference-runs'] ?? Math.max(5, Math.round(runs / 6)));
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const { app, headers } = await benchAdminApp(db);

  const size = (await pool.query('select sum(n)::bigint as n from operation_counts')).rows[0].n;
  const rollupRows = (await pool.query('select count(*)::bigint as n from points_flow_days')).rows[0].n;
  const totalsRows = (await pool.query('select count(*)::bigint as n from points_flow_totals')).rows[0].n;
  const lots = (
    await pool.query(`select count(*)::bigint as n,
      count(*) filter (where remaining > 0 and expires_at <= now() + interval '30 days')::bigint as expiring,
      count(*) filter (where remaining > 0 and expires_at <= now())::bigint as due from lots`)
  ).rows[0];
  const posId = (await pool.query('select id from pos_keys order by id limit 1')).rows[0]?.id as string;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const cases = [
    { name: 'last 30 days, by day', query: { from: day(-29), to: day(0), groupBy: 'day' as const } },
    { name: 'last 7 days, by day', query: { from: day(-6), to: day(0), groupBy: 'day' as const } },
    { name: '12 months, by month', query: { from: day(-365), to: day(0), groupBy: 'month' as const } },
    { name: 'last 30 days, one POS', query: { from: day(-29), to: day(0), groupBy: 'day' as const, posId } },
  ];

  console.log(
    `operations: ${size}, points_flow_days rows: ${rollupRows}, points_flow_totals rows: ${totalsRows}, ` +
      `lots: ${lots.n} (${lots.expiring} expiring within 30 days, ${lots.due} of them due), runs: ${runs}`,
  );
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log('| report | endpoint p50 | endpoint p95 | raw recomputation p50 | raw p95 |');
  console.log('|---|---:|---:|---:|---:|');
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  for (const { name, query } of cases) {
    const qs = new URLSearchParams(query as Record<string, string>).toString();
    const answer = (await app.inject({ url: `/api/v1/reports/points-flow?${qs}`, headers })).json();
    const checked = performance.now();
    const raw = await pointsFlow(db, query, referenceFlowSource);
    const once = performance.now() - checked;
    if (JSON.stringify(answer.rows) !== JSON.stringify(raw.rows)) throw new Error(`${name}: rollup ≠ raw`);
    const endpoint = await timed(runs, async () => {
      const res = await app.inject({ url: `/api/v1/reports/points-flow?${qs}`, headers });
      if (res.statusCode !== 200) throw new Error(`${res.statusCode} ${res.body}`);
    });
    const reference =
      referenceRuns > 0
        ? await timed(referenceRuns, () => pointsFlow(db, query, referenceFlowSource))
        : { p50: once, p95: once };
    console.log(
      `| ${name} | ${ms(endpoint.p50)} | ${ms(endpoint.p95)} | ${ms(reference.p50)} | ${ms(reference.p95)} |`,
    );
  }
  // The report's outstanding (and the dashboard's 'Expiring (30d)') alone, against the sums over every lot.
  const [fromRollup, fromLots] = [await lotsOutstanding(db), await lotsOutstandingReference(db)];
  if (Number(fromRollup.pending) !== Number(fromLots.pending)) throw new Error('pending: rollup ≠ lots');
  if (Number(fromRollup.expiring30Days) !== Number(fromLots.expiring30Days)) {
    throw new Error('expiring in 30 days: rollup ≠ lots');
  }
  const outstanding = await timed(runs, () => lotsOutstanding(db));
  const outstandingRaw = await timed(Math.max(5, referenceRuns), () => lotsOutstandingReference(db));
  console.log(
    `| outstanding alone (pending, expiring 30 days: ${fromRollup.expiring30Days}) | ${ms(outstanding.p50)} | ` +
      `${ms(outstanding.p95)} | ${ms(outstandingRaw.p50)} | ${ms(outstandingRaw.p95)} |`,
  );
  console.log(
    `load average at end: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
