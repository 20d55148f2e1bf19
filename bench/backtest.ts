/**
 * `npm run bench:backtest`: the ruleset backtest (PROGRAMME-API §3) over a month of stored receipts.
 *
 * Builds a database of its own on a PostgreSQL server (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/
 * postgres; database `rules_backtest_bench`, or `rules_backtest_bench_time` with BENCH_ORDER=time, or
 * BENCH_DB; dropped afterwards unless BENCH_KEEP=1) with BENCH_RECEIPTS receipts (default 1,000,000, the
 * issue's size) of 5 lines each spread over the last 30 days, written set-based in SQL (not through the API:
 * the backtest reads stored lines, whatever wrote them). BENCH_REUSE=1 takes a database kept by an earlier run
 * (BENCH_KEEP=1) as it is when it holds that many receipts, or adds the missing ones when it holds fewer
 * (building 1M took 60–90 s on 2 cores at load ≈ 2). Then, in this process: two anchors — a SQL-only pass over
 * the same lines (count and Σ bonus, what any report of them costs) and the backtest's own reads without the
 * computation — and the backtest of a 1-rule and of a 20-rule ruleset, each timed, with the process's peak RSS
 * sampled every 50 ms (flat memory: at most BENCH_IN_FLIGHT windows of ≈ 15,000 receipts wait at a time) and
 * the event loop's stalls (p99 and longest, `monitorEventLoopDelay`): in the server, what every other request
 * on it, a till's too, waits while a backtest runs.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { sql } from 'kysely';
import pg from 'pg';
import { type Db, openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import {
  BACKTEST_BATCH_RECEIPTS,
  backtestRuleset,
} from '../apps/server/src/modules/rulesets/backtest.service';
import { backtestBatches } from '../apps/server/src/modules/rulesets/backtest-batches';

const BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/**
 * BENCH_ORDER=random (default): each build batch's receipts are spread at random over the 30 days, so a walk in
 * time order reads heap pages all over — the hard case. BENCH_ORDER=time: receipts written in time order, as
 * tills write them. Each order has a database of its own unless BENCH_DB names one.
 */
const ORDER = process.env.BENCH_ORDER === 'time' ? 'time' : 'random';
const NAME =
  process.env.BENCH_DB ?? (ORDER === 'time' ? 'rules_backtest_bench_time' : 'rules_backtest_bench');
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 1_000_000);
const CARDS = 20_000;
/** BENCH_IN_FLIGHT: reads at once in the walk (unset: the service's default). */
const IN_FLIGHT = process.env.BENCH_IN_FLIGHT ? Number(process.env.BENCH_IN_FLIGHT) : undefined;
/**
 * BENCH_SLICE: receipts computed between two turns of the event loop (unset: the service's default). The
 * batch size, 20,000, is one slice per batch: the computation as it was before slices.
 */
const SLICE = process.env.BENCH_SLICE ? Number(process.env.BENCH_SLICE) : undefined;
const BATCH = 50_000;
/**
 * BENCH_LINES_TEXT=0: receipts built without `lines_text`, as those written before migration 028, so the
 * backtest reads their lines through `storedLinesText` (the old per-receipt lookup).
 */
const LINES_TEXT = process.env.BENCH_LINES_TEXT !== '0';
/** Line l of receipt g.i: its SKU and category, the same in the lines and in the receipt's lines text. */
const LINE_SKU = sql`'SKU-' || ((g.i * 7 + l * 13) % 60)`;
const LINE_CATEGORY = sql`(array['dairy', 'bakery', 'drinks', 'grocery', null])[l]`;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: BASE });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * The dataset: CARDS cards, RECEIPTS receipts of 5 lines over the last 30 days, one till, ruleset 1. From a
 * kept database of `from` receipts (BENCH_REUSE=1), only the rest is added.
 */
async function build(db: Db, from: number, order: 'random' | 'time'): Promise<void> {
  if (from === 0) {
    await sql`
    insert into pos_keys (name, address, key_hash, key_cipher, status)
    values ('bench till', null, 'x', 'x', 'active')`.execute(db);
    await sql`insert into rulesets (version, percent, active_from, created_by) values (1, 5, now() - interval '60 days', 'bench')`.execute(
      db,
    );
    await sql`
    with a as (
      insert into accounts (client_id, balance) select 'bt-' || i, 1000000 from generate_series(1, ${CARDS}::int) as i
      returning id, client_id
    )
    insert into cards (number, account_id, status, issued_at)
    select '5' || lpad(substr(a.client_id, 4), 15, '0'), a.id, 'active', now() from a`.execute(db);
  }
  const pos = await sql<{ id: string }>`select id from pos_keys where name = 'bench till'`.execute(db);
  const posId = pos.rows[0]!.id;

  for (let done = from; done < RECEIPTS; done += BATCH) {
    const n = Math.min(BATCH, RECEIPTS - done);
    await db.transaction().execute(async (trx) => {
      // The backtest reads receipts, their lines and their operations, nothing derived from them: the
      // derived-data triggers (and the foreign-key checks) are left out of the build, which they made take
      // half an hour for 1M receipts on a loaded machine. The lines go in receipt by receipt, as an accrual
      // writes them (one statement per receipt): unordered, the planner put line 1 of every receipt first, then
      // line 2…, so each receipt's 5 lines sat on 5 heap pages ~700 apart (the datasets built before this).
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`
    with g as (
      select gen_random_uuid() as id, i,
        ${order === 'time' ? sql`now() - interval '30 days' + (i - 1)::float8 / ${RECEIPTS}::int * interval '30 days'` : sql`now() - random() * interval '30 days'`} as at,
        '5' || lpad((1 + (i % ${CARDS}))::text, 15, '0') as card_number
      from generate_series(${done + 1}::int, ${done + n}::int) as i
    ),
    o as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number, pos_id,
        ruleset_version, meta, created_at)
      select g.id, 'bt-' || g.i, 'accrual', 'completed', 2.5, c.account_id, c.id, g.card_number, ${posId}::uuid,
        1, '{}'::jsonb, g.at
      from g join cards c on c.number = g.card_number
      returning id
    ),
    r as (
      insert into receipts (accrual_id, receipt_id, pos_id, card_number, total_amount, total_discount, created_at,
        lines_text)
      select g.id, 'R-' || g.i, ${posId}::uuid, g.card_number, 50, 0, g.at,
        ${
          LINES_TEXT
            ? sql`(select string_agg(receipt_line_text(${LINE_SKU}, ${LINE_CATEGORY}, 1, 10, 0, 0.5), E'\\t' order by l)
          from generate_series(1, 5) as l)`
            : sql`null`
        }
      from g
    )
    insert into receipt_items (accrual_id, line_no, sku, category, quantity, price, discount, line_total,
      bonus_points, rule)
    select g.id, l, ${LINE_SKU}, ${LINE_CATEGORY}, 1, 10, 0, 10, 0.5, 'base'
    from g cross join generate_series(1, 5) as l
    order by g.i, l`.execute(trx);
    });
    console.log(
      `built ${done + n} of ${RECEIPTS} receipts (${order} order), load ${loadavg()[0]!.toFixed(2)}`,
    );
  }
  await sql`analyze`.execute(db);
}

/** How many receipts a kept database holds, or null when there is none. */
async function storedReceipts(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const result = await client.query('select count(*)::int as n from receipts');
    return result.rows[0].n as number;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function main(): Promise<void> {
  const url = new URL(BASE);
  url.pathname = `/${NAME}`;
  const stored = process.env.BENCH_REUSE === '1' ? await storedReceipts(url.toString()) : null;
  const kept = stored !== null && stored > 0 && stored <= RECEIPTS ? stored : 0;
  const reused = kept === RECEIPTS;
  if (kept === 0) {
    await admin(`drop database if exists ${NAME}`);
    await admin(`create database ${NAME}`);
  }
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  const { db } = handle;
  try {
    await migrateToLatest(db);
    const started = performance.now();
    if (!reused) await build(db, kept, ORDER);
    const built = (performance.now() - started) / 1000;

    if (kept > 0) await sql`delete from rulesets where version > 1`.execute(db); // the last run's candidates
    const rulesetWith = async (version: number, count: number) => {
      const rules = Array.from({ length: count }, (_, i) => ({
        name: `Rule ${i + 1}`,
        percent: 5 + i,
        categories: i % 2 ? ['grocery'] : ['drinks', 'bakery'],
        skus: Array.from({ length: 5 }, (_, j) => `SKU-${(i * 3 + j) % 60}`),
        daysOfWeek: [1, 2, 3, 4, 5],
        hours: { from: '08:00', to: '20:00' },
      }));
      const row = await sql<{ id: string }>`
      insert into rulesets (version, percent, earning_rules, created_by)
      values (${version}, 5, ${JSON.stringify({ rules, maxPointsPerReceipt: 4, maxPointsPerCardPerDay: 20 })}::jsonb,
        'bench') returning id`.execute(db);
      return row.rows[0]!.id;
    };
    const one = await rulesetWith(2, 1);
    const twenty = await rulesetWith(3, 20);
    // Every stored receipt: a reused database was built days ago, so the range is read from it.
    const span = await sql<{ first: Date; last: Date }>`
      select min(created_at) as first, max(created_at) as last from receipts`.execute(db);
    const range = {
      from: span.rows[0]!.first.toISOString(),
      to: new Date(span.rows[0]!.last.getTime() + 1000).toISOString(),
    };

    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const timed = async <T>(label: string, run: () => Promise<T>) => {
      global.gc?.();
      peak = process.memoryUsage().rss;
      const rssBefore = peak;
      // How long the event loop stalled: in the server, every request on it (a till's too) waits that long.
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const t = performance.now();
      const result = await run();
      const seconds = (performance.now() - t) / 1000;
      loop.disable();
      const stall = (ns: number) => `${(ns / 1e6).toFixed(0)} ms`;
      console.log(
        `${label}: ${seconds.toFixed(2)} s; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB; event loop stalls p99 ${stall(loop.percentile(99))}, longest ${stall(loop.max)}`,
      );
      return { seconds, result };
    };

    const anchor = await timed('anchor: SQL count and Σ bonus over the same lines', () =>
      sql`select count(*), sum(i.bonus_points) from receipts r join receipt_items i on i.accrual_id = r.accrual_id
      where r.created_at >= ${range.from}::timestamptz and r.created_at < ${range.to}::timestamptz`.execute(
        db,
      ),
    );
    const reads = await timed("anchor: the backtest's batch reads alone (no computation)", async () => {
      let chars = 0;
      for await (const batch of backtestBatches(db, range, BACKTEST_BATCH_RECEIPTS, IN_FLIGHT))
        for (const receipt of batch.receipts) chars += receipt.lines?.length ?? 0;
      return chars;
    });
    const a = await timed('backtest, 1-rule ruleset', () =>
      backtestRuleset(db, one, range, { inFlight: IN_FLIGHT, sliceReceipts: SLICE }),
    );
    const b = await timed('backtest, 20-rule ruleset', () =>
      backtestRuleset(db, twenty, range, { inFlight: IN_FLIGHT, sliceReceipts: SLICE }),
    );
    const a2 = await timed('backtest, 1-rule ruleset again', () =>
      backtestRuleset(db, one, range, { inFlight: IN_FLIGHT, sliceReceipts: SLICE }),
    );
    clearInterval(sampler);
    console.log(
      `\n${RECEIPTS} receipts (${RECEIPTS * 5} lines, ${ORDER} order, database ${NAME}) over 30 days, ${reused ? 'reused' : `${kept > 0 ? `grown from ${kept}` : 'built'} in ${built.toFixed(0)} s`}; backtest answered ${a.result.receipts} receipts, ${a.result.accounts} accounts; lines text ${(reads.result / 2 ** 20).toFixed(0)} MiB`,
    );
    console.log(
      `20 rules: ${b.seconds.toFixed(2)} s = ${(b.seconds / anchor.seconds).toFixed(1)}× the SQL anchor, ${(b.seconds / reads.seconds).toFixed(1)}× the reads alone; 1 rule: ${((a.seconds + a2.seconds) / 2).toFixed(2)} s (mean of two); ${((RECEIPTS / b.seconds) | 0).toLocaleString('en-US')} receipts/s`,
    );
    console.log(`candidate points (20 rules) ${b.result.candidatePoints}, current ${b.result.currentPoints}`);
    console.log(
      `load average (1 min) ${loadavg()[0]!.toFixed(2)}; ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    );
  } finally {
    await handle.close();
    if (process.env.BENCH_KEEP !== '1') await admin(`drop database if exists ${NAME}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
