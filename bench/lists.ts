import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
// Imported for its side effect: the pg type parsers the app relies on (numeric → string, int8 → number).
import '../apps/server/src/db/connection';
import type { Database } from '../apps/server/src/db/schema';
import { benchAdminApp } from './bench-admin-app';
import { type Captured, explainAll, type PlanSummary } from './explain';

/**
 * `npm run bench:lists [-- --runs 60]`: p50/p95 of every list the console's screens ask for, through the
 * real app (`buildApp` + `inject`: routing, validation, SQL, serialisation) on the benchmark database
 * built by `bench:dataset`, then EXPLAIN (ANALYZE) of the SQL each request ran, to show which index
 * answers it and that no big table is read sequentially.
 */
const BIG_TABLES = new Set(['accounts', 'cards', 'operations']);

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '60' } } });
  const runs = Number(values.runs);
  const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';

  let capture: Captured[] | undefined;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query' && capture) {
        capture.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
      }
    },
  });
  const { app, headers } = await benchAdminApp(db);

  const sizes = await pool.query(`select
      (select sum(n) from account_counts)::bigint as accounts,
      (select sum(n) from card_counts)::bigint as cards,
      (select sum(n) from operation_counts)::bigint as operations`);
  // The oldest account is the busiest (the dataset skews activity to old accounts); the median one is typical.
  const busiest = (
    await pool.query(`select a.id, a.client_id, c.number from accounts a
      join cards c on c.account_id = a.id and c.status = 'active' order by a.created_at, c.created_at limit 1`)
  ).rows[0];
  const typical = (
    await pool.query(`select a.id, a.client_id, c.number from accounts a
      join cards c on c.account_id = a.id and c.status = 'active'
      order by a.created_at offset (select sum(n) / 2 from account_counts) limit 1`)
  ).rows[0];
  const opId = (
    await pool.query('select operation_id from operations where operation_id is not null limit 1')
  ).rows[0].operation_id as string;

  const scenarios: Array<[string, string]> = [
    ['accounts, page 0 (newest)', '/api/v1/accounts?page=0&size=10'],
    ['accounts, deep page 5,000', '/api/v1/accounts?page=5000&size=10'],
    ['accounts, sorted by balance', '/api/v1/accounts?sort=balance,desc&size=10'],
    ['accounts, client ID contains "12345"', '/api/v1/accounts?search=12345&size=10'],
    ['accounts, client ID contains "777"', '/api/v1/accounts?search=777&size=10'],
    ['accounts, client ID contains "77"', '/api/v1/accounts?search=77&size=10'],
    ['accounts, client ID contains "7"', '/api/v1/accounts?search=7&size=10'],
    ['cards, page 0', '/api/v1/cards?size=10'],
    ['cards, status=blocked', '/api/v1/cards?status=blocked&size=10'],
    ['cards, status=pending, page 100', '/api/v1/cards?status=pending&page=100&size=10'],
    ['cards, number prefix (6 digits)', `/api/v1/cards?search=${typical.number.slice(0, 6)}&size=10`],
    ['cards, number prefix (1 digit) & status=blocked', '/api/v1/cards?search=4&status=blocked&size=10'],
    ['cards, by account id (search)', `/api/v1/cards?search=${typical.id}&size=10`],
    [
      'cards, by client ID (search, any case)',
      `/api/v1/cards?search=${typical.client_id.toLowerCase()}&size=10`,
    ],
    ['cards, of one account (client page)', `/api/v1/cards?accountId=${busiest.id}&size=5`],
    ['operations, unfiltered', '/api/v1/operations?size=10'],
    ['operations, type=redemption', '/api/v1/operations?type=redemption&size=10'],
    ['operations, status=failed', '/api/v1/operations?status=failed&size=10'],
    ['operations, type=hold & status=voided', '/api/v1/operations?type=hold&status=voided&size=10'],
    ['operations, busiest account', `/api/v1/operations?accountId=${busiest.id}&size=10`],
    ['operations, typical account', `/api/v1/operations?accountId=${typical.id}&size=10`],
    [
      'operations, busiest account, accruals (client page receipts)',
      `/api/v1/operations?accountId=${busiest.id}&type=accrual&size=5`,
    ],
    ['operations, by card number', `/api/v1/operations?cardNumber=${busiest.number}&size=10`],
    [
      'operations, search card prefix (8 digits)',
      `/api/v1/operations?search=${typical.number.slice(0, 8)}&size=10`,
    ],
    ['operations, search operation-id prefix', `/api/v1/operations?search=${opId.slice(0, 8)}&size=10`],
    ['operations, search 2 characters', '/api/v1/operations?search=45&size=10'],
    ['operations, search 1 character', '/api/v1/operations?search=4&size=10'],
    ['operations, search 1 character & type=hold', '/api/v1/operations?search=4&type=hold&size=10'],
    ['client lookup, card number (busiest)', `/api/v1/clients/${busiest.number}/lookup`],
    ['client lookup, client ID (typical)', `/api/v1/clients/${typical.client_id.toLowerCase()}/lookup`],
  ];

  const loadAtStart = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  const results: Array<{
    name: string;
    url: string;
    p50: number;
    p95: number;
    total: number;
    plans: PlanSummary[];
  }> = [];
  for (const [name, path] of scenarios) {
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < runs + 5; i++) {
      const start = performance.now();
      const res = await app.inject({ url: path, headers });
      const elapsed = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${res.body}`);
      const body = res.json();
      total = body.totalElements ?? body.operations?.total ?? 0;
      if (i >= 5) times.push(elapsed);
    }
    capture = [];
    await app.inject({ url: path, headers });
    const captured = capture;
    capture = undefined;
    const plans = await explainAll(pool, captured);
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    results.push({ name, url: path, p50: at(0.5), p95: at(0.95), total, plans });
    console.error(`${name}: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`);
  }

  const row = sizes.rows[0];
  const loadAtEnd = loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ');
  console.log(
    `Dataset: ${row.accounts} accounts, ${row.cards} cards, ${row.operations} operations; ${runs} runs each.`,
  );
  console.log(`Load average (1/5/15 min) at the start: ${loadAtStart}; at the end: ${loadAtEnd}.\n`);
  // The anchor: the database's own execution time of the same SQL (EXPLAIN ANALYZE), measured in this run.
  console.log('| list | p50 ms | p95 ms | SQL ms | total | how the database answers (EXPLAIN ANALYZE) |');
  console.log('|---|---:|---:|---:|---:|---|');
  let failures = 0;
  for (const r of results) {
    const seq = r.plans.flatMap((p) => p.seqScans).filter((t) => BIG_TABLES.has(t));
    if (seq.length > 0 || r.p95 >= 50) failures++;
    const how = [...new Set(r.plans.flatMap((p) => p.indexes))].join(', ') || 'counter rows / small tables';
    const flag = seq.length > 0 ? ` **seq scan: ${[...new Set(seq)].join(', ')}**` : '';
    const sqlMs = r.plans.reduce((sum, p) => sum + p.executionMs, 0);
    console.log(
      `| ${r.name} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${sqlMs.toFixed(1)} | ${r.total} | ${how}${flag} |`,
    );
  }
  console.log(
    `\n${failures === 0 ? 'All lists' : `${failures} list(s) NOT`} under 50 ms at p95 without a sequential scan of a big table.`,
  );
  await app.close();
  await db.destroy();
  if (failures > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
