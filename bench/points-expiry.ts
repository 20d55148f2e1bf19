import { loadavg } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../apps/server/src/db/connection';
import { expirePoints } from '../apps/server/src/modules/ledger/points-expiry';
import { type PosLatency, startPosBeside } from './pos-beside';

/**
 * `npm run bench:points-expiry [-- --batch 500] [--pos-rate 50 --pos-seconds 60]`: the expiry sweeper (`expirePoints`, the function the
 * periodic sweeper and `POST /api/v1/admin/points/expire` run) over every lot due in the database
 * `bench:dataset` built (it leaves ~1M due at 10M operations), one run after another until a run expires
 * nothing. Prints the due lots before and after, the time, lots and accounts per second, and the load
 * average. It writes: the due lots are spent afterwards (build the dataset again to repeat it). Run
 * `npm run verify-ledger` with DATABASE_URL = the same database afterwards.
 *
 * With `--pos-rate N`: POS accruals at N per second on cards of accounts with due lots, through the real
 * server (bench/pos-beside.ts), first alone for `--pos-seconds` (the anchor), then for as long as the sweep
 * runs; prints both latencies (what issue 9 asks: POS p99 while the sweeper runs).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      batch: { type: 'string', default: '500' },
      'pos-rate': { type: 'string', default: '0' },
      'pos-seconds': { type: 'string', default: '60' },
      'pos-port': { type: 'string', default: '3105' },
    },
  });
  const batch = Number(values.batch);
  const posRate = Number(values['pos-rate']);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';
  const handle = await openDatabase({ databaseUrl: url, poolSize: 2 });
  const db = handle.db;
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const pos = posRate > 0 ? await startPosBeside(db, url, Number(values['pos-port'])) : undefined;
  const show = (label: string, l: PosLatency) =>
    console.log(
      `POS accruals ${label}: ${l.requests} requests, p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms, ` +
        `non-2xx ${l.non2xx}, errors ${l.errors} (load ${load()})`,
    );

  // Lots are due against the clock, so a lot may fall due during the run: the count after says what was left.
  const due = async () => {
    const { rows } = await sql<{ lots: number; points: string }>`
      select count(*)::int as lots, coalesce(sum(remaining), 0)::text as points from lots
      where remaining > 0 and expires_at <= now()`.execute(db);
    return rows[0]!;
  };
  const expiredLots = async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from lot_consumptions c join operations o on o.id = c.operation_id
      where o.type = 'expiry'`.execute(db);
    return rows[0]!.n;
  };

  const before = await due();
  const lotsBefore = await expiredLots();
  if (pos) {
    const seconds = Number(values['pos-seconds']);
    show(`alone, ${posRate}/s for ${seconds} s`, await pos.accrueUntil(posRate, delay(seconds * 1000)));
  }
  console.log(`due before: ${before.lots} lots, ${before.points} points; batch ${batch} accounts`);
  console.log(`load average at start: ${load()}`);
  const started = performance.now();
  let accounts = 0;
  let runs = 0;
  let sweepEnded: () => void = () => {};
  const posDuring = pos?.accrueUntil(posRate, new Promise<void>((ok) => (sweepEnded = ok)));
  for (;;) {
    const t = performance.now();
    const run = await expirePoints(db, batch);
    runs++;
    accounts += run.accounts;
    console.log(
      `run ${runs}: ${run.accounts} accounts, ${run.points} points in ${((performance.now() - t) / 1000).toFixed(1)} s (load ${load()})`,
    );
    if (run.accounts === 0) break;
  }
  const seconds = (performance.now() - started) / 1000;
  sweepEnded();
  if (posDuring) show(`beside the sweep, ${posRate}/s`, await posDuring);
  await pos?.close();
  const lots = (await expiredLots()) - lotsBefore;
  const after = await due();
  console.log(
    `expired ${lots} lots of ${accounts} accounts in ${seconds.toFixed(1)} s: ` +
      `${Math.round(lots / seconds)} lots/s, ${Math.round(accounts / seconds)} accounts/s`,
  );
  console.log(`due after: ${after.lots} lots, ${after.points} points (kept for open holds or due since)`);
  console.log(`load average at end: ${load()}`);
  await handle.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
