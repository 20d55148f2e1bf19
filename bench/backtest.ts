/**
 * `npm run bench:backtest`: the ruleset backtest (PROGRAMME-API §3) over a month of stored receipts.
 *
 * Builds a database of its own on a PostgreSQL server (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/
 * postgres; database `rules_backtest_bench`, dropped afterwards unless BENCH_KEEP=1) with BENCH_RECEIPTS
 * receipts (default 200,000) of 5 lines each spread over the last 30 days, written set-based in SQL (not
 * through the API: the backtest reads stored lines, whatever wrote them). Then, in this process: the anchor, a
 * SQL-only pass over the same lines (count and Σ bonus, what any report of them costs), and the backtest of a
 * 1-rule and of a 20-rule ruleset, each timed, with the process's peak RSS sampled every 50 ms (flat memory:
 * the keyset batches hold a few thousand receipts at a time).
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import { backtestRuleset } from '../apps/server/src/modules/rulesets/backtest.service';

const BASE = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAME = 'rules_backtest_bench';
const RECEIPTS = Number(process.env.BENCH_RECEIPTS ?? 200_000);
const CARDS = 20_000;
const BATCH = 50_000;

async function admin(statement: string) {
  const client = new pg.Client({ connectionString: BASE });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const url = new URL(BASE);
  url.pathname = `/${NAME}`;
  await admin(`drop database if exists ${NAME}`);
  await admin(`create database ${NAME}`);
  const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: 4 });
  const { db } = handle;
  try {
    await migrateToLatest(db);
    const pos = await sql<{ id: string }>`
    insert into pos_keys (name, address, key_hash, key_cipher, status)
    values ('bench till', null, 'x', 'x', 'active') returning id`.execute(db);
    const posId = pos.rows[0]!.id;
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

    const started = performance.now();
    for (let done = 0; done < RECEIPTS; done += BATCH) {
      const n = Math.min(BATCH, RECEIPTS - done);
      await sql`
      with g as (
        select gen_random_uuid() as id, i,
          now() - random() * interval '30 days' as at,
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
        insert into receipts (accrual_id, receipt_id, pos_id, card_number, total_amount, total_discount, created_at)
        select g.id, 'R-' || g.i, ${posId}::uuid, g.card_number, 50, 0, g.at from g
      )
      insert into receipt_items (accrual_id, line_no, sku, category, quantity, price, discount, line_total,
        bonus_points, rule)
      select g.id, l, 'SKU-' || ((g.i * 7 + l * 13) % 60), (array['dairy', 'bakery', 'drinks', 'grocery', null])[l],
        1, 10, 0, 10, 0.5, 'base'
      from g, generate_series(1, 5) as l`.execute(db);
    }
    await sql`analyze`.execute(db);
    const built = (performance.now() - started) / 1000;

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
    const range = {
      from: new Date(Date.now() - 30 * 86_400_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    };

    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const timed = async <T>(label: string, run: () => Promise<T>) => {
      global.gc?.();
      peak = process.memoryUsage().rss;
      const rssBefore = peak;
      const t = performance.now();
      const result = await run();
      const seconds = (performance.now() - t) / 1000;
      console.log(
        `${label}: ${seconds.toFixed(2)} s; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
      );
      return { seconds, result };
    };

    const anchor = await timed('anchor: SQL count and Σ bonus over the same lines', () =>
      sql`select count(*), sum(i.bonus_points) from receipts r join receipt_items i on i.accrual_id = r.accrual_id
      where r.created_at >= ${range.from}::timestamptz and r.created_at < ${range.to}::timestamptz`.execute(
        db,
      ),
    );
    const a = await timed('backtest, 1-rule ruleset', () => backtestRuleset(db, one, range));
    const b = await timed('backtest, 20-rule ruleset', () => backtestRuleset(db, twenty, range));
    const a2 = await timed('backtest, 1-rule ruleset again', () => backtestRuleset(db, one, range));
    clearInterval(sampler);
    console.log(
      `\n${RECEIPTS} receipts (${RECEIPTS * 5} lines) over 30 days, built in ${built.toFixed(0)} s; backtest answered ${a.result.receipts} receipts, ${a.result.accounts} accounts`,
    );
    console.log(
      `20 rules: ${b.seconds.toFixed(2)} s = ${(b.seconds / anchor.seconds).toFixed(1)}× the SQL anchor; 1 rule: ${((a.seconds + a2.seconds) / 2).toFixed(2)} s (mean of two); ${((RECEIPTS / b.seconds) | 0).toLocaleString('en-US')} receipts/s`,
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
