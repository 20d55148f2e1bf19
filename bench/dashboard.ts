import { deepStrictEqual } from 'node:assert';
import { cpus, loadavg, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import type { AnalyticsRangeQuery } from '@loyalty/contracts';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase } from '../apps/server/src/db/connection';
import { migrateToLatest } from '../apps/server/src/db/migrate';
import {
  type AnalyticsSource,
  rollupSource,
} from '../apps/server/src/modules/analytics/analytics.repository';
import {
  cardsAnalytics,
  operationsAnalytics,
  pointsSummary,
  retentionAnalytics,
} from '../apps/server/src/modules/analytics/analytics.service';
import { referenceSource } from '../apps/server/src/modules/analytics/analytics-reference.repository';
import { measureWriteOverhead, type WriteRound } from './dashboard-writes';

/**
 * `npm run bench:dashboard`: every dashboard analytics call for 24 h / 7 d / 30 d windows ending at the
 * dataset's last day, through the real app (buildApp + inject, with authentication), against the same
 * answer computed from the raw tables (asserted equal); then the write overhead of the rollup triggers.
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/loyalty_bench), built by
 * `npm run bench:dataset`. Options: --iterations (HTTP calls and rollup queries per endpoint, 200),
 * --raw-iterations (raw-table queries per endpoint, 5), --write-clients (8), --writes-per-client (400),
 * --write-pairs (5 pairs of on/off rounds), --skip-reads, --skip-writes.
 */
const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '200' },
    'raw-iterations': { type: 'string', default: '5' },
    'write-clients': { type: 'string', default: '8' },
    'writes-per-client': { type: 'string', default: '400' },
    'write-pairs': { type: 'string', default: '5' },
    'skip-writes': { type: 'boolean', default: false },
    'skip-reads': { type: 'boolean', default: false },
  },
});
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/loyalty_bench';
const HOUR = 3_600_000;

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' / ');
const ms = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

async function main(): Promise<void> {
  const iterations = Number(values.iterations);
  const rawIterations = Number(values['raw-iterations']);
  const database = await openDatabase({ databaseUrl: url, poolSize: 10 });
  await migrateToLatest(database.db);
  const db = database.db;

  const stats = await sql<{
    operations: number;
    cards: number;
    accounts: number;
    last: Date;
    version: string;
  }>`
    select (select count(*) from operations)::int8 as operations, (select count(*) from cards)::int8 as cards,
           (select count(*) from accounts)::int8 as accounts, (select max(created_at) from operations) as last,
           current_setting('server_version') as version`.execute(db);
  const dataset = stats.rows[0]!;
  // The windows end where the dashboard's "now" would be: the end of the dataset's last hour.
  const end = Math.ceil((new Date(dataset.last).getTime() + 1) / HOUR) * HOUR;
  console.log(
    `dataset: ${dataset.operations} operations, ${dataset.cards} cards, ${dataset.accounts} accounts; ` +
      `windows end ${new Date(end).toISOString()}; PostgreSQL ${dataset.version}; ` +
      `${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM; load average ${load()}`,
  );

  const config = loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent', HOLD_SWEEP_INTERVAL_MS: '0' });
  const app = await buildApp({
    config,
    database,
    secrets: { jwtSecret: 'bench-secret-that-is-long-enough-0123456789', posKeySecret: '0'.repeat(64) },
  });
  await app.ready();
  const viewer =
    (await db
      .selectFrom('users')
      .select(['id', 'username', 'role'])
      .where('username', '=', 'bench-viewer')
      .executeTakeFirst()) ??
    (await db
      .insertInto('users')
      .values({ username: 'bench-viewer', password_hash: 'x', role: 'VIEWER', email: null, full_name: null })
      .returning(['id', 'username', 'role'])
      .executeTakeFirstOrThrow());
  const { token } = await app.tokens.issue(viewer);

  /** `answer(source)`: the service answering from the rollups or from the raw tables. */
  type Call = { name: string; path: string; answer: (source: AnalyticsSource) => Promise<unknown> };
  const calls: Call[] = [];
  for (const [label, hours] of [
    ['24 h', 24],
    ['7 d', 168],
    ['30 d', 720],
  ] as const) {
    const query: AnalyticsRangeQuery = {
      from: new Date(end - hours * HOUR).toISOString(),
      to: new Date(end).toISOString(),
    };
    const qs = `from=${query.from}&to=${query.to}`;
    calls.push(
      {
        name: `operations ${label}`,
        path: `operations?${qs}`,
        answer: (s) => operationsAnalytics(db, query, s),
      },
      { name: `cards ${label}`, path: `cards?${qs}`, answer: (s) => cardsAnalytics(db, query, s) },
      {
        name: `retention ${label}`,
        path: `retention?${qs}`,
        answer: (s) => retentionAnalytics(db, query, s),
      },
    );
  }
  calls.push({
    name: 'bonuses-circulation',
    path: 'bonuses-circulation',
    answer: (s) => pointsSummary(db, s),
  });

  if (values['skip-reads']) calls.length = 0;

  const withoutTime = (body: unknown) => {
    const { calculatedAt: _ignored, ...rest } = body as Record<string, unknown>;
    return rest;
  };
  const get = async (call: Call) => {
    const res = await app.inject({
      url: `/api/v1/analytics/${call.path}`,
      headers: { authorization: `Bearer ${token}` },
    });
    if (res.statusCode !== 200) throw new Error(`${call.path}: ${res.statusCode} ${res.body}`);
    return res.json() as unknown;
  };
  const samples = calls.map(() => ({ http: [] as number[], query: [] as number[], raw: [] as number[] }));
  const answers = calls.map(() => ({ http: undefined as unknown, raw: undefined as unknown }));
  const time = async (into: number[], work: () => Promise<unknown>) => {
    const start = performance.now();
    const answer = await work();
    into.push(performance.now() - start);
    return answer;
  };
  // Round-robin over the calls, so a burst of noise on this shared machine hits every call alike.
  for (let i = 0; i < 20; i++) for (const call of calls) await get(call); // warm-up
  for (let i = 0; i < iterations; i++) {
    for (const [k, call] of calls.entries()) {
      answers[k]!.http = await time(samples[k]!.http, () => get(call));
      await time(samples[k]!.query, () => call.answer(rollupSource));
    }
  }
  for (let i = 0; i < rawIterations; i++) {
    for (const [k, call] of calls.entries()) {
      answers[k]!.raw = await time(samples[k]!.raw, () => call.answer(referenceSource));
    }
  }

  const lines = [
    '| call | points | HTTP p50 (ms) | HTTP p95 (ms) | rollup query p50 (ms) | raw-table query p50 (ms) | speed-up, query | speed-up, HTTP | same answer |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const [k, call] of calls.entries()) {
    const { http, raw } = answers[k]!;
    deepStrictEqual(withoutTime(http), withoutTime(JSON.parse(JSON.stringify(raw))));
    const [h, q, r] = [samples[k]!.http, samples[k]!.query, samples[k]!.raw].map((xs) =>
      xs.sort((a, b) => a - b),
    );
    const series = Object.values(http as Record<string, unknown>).find(Array.isArray) as
      | unknown[]
      | undefined;
    lines.push(
      `| ${call.name} | ${series?.length ?? 1} | ${ms(quantile(h!, 0.5))} | ${ms(quantile(h!, 0.95))} | ` +
        `${ms(quantile(q!, 0.5))} | ${ms(quantile(r!, 0.5))} | ${Math.round(quantile(r!, 0.5) / quantile(q!, 0.5))}× | ` +
        `${Math.round(quantile(r!, 0.5) / quantile(h!, 0.5))}× | yes |`,
    );
  }
  console.log(lines.join('\n'));
  await app.close();
  await database.close();

  if (!values['skip-writes']) {
    const rounds = await measureWriteOverhead(url, {
      clients: Number(values['write-clients']),
      perClient: Number(values['writes-per-client']),
      pairs: Number(values['write-pairs']),
      log: (line) => console.log(line),
    });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const of = (mode: 'on' | 'off', pick: (r: WriteRound) => number) =>
      rounds.filter((r) => r.triggers === mode).map(pick);
    // Each pair ran back to back: its ratio is the least disturbed by the machine's drift.
    const pairs = (pick: (r: WriteRound) => number, cost: boolean) =>
      of('on', pick).map((on, pair) => {
        const off = of('off', pick)[pair]!;
        return cost ? on / off - 1 : 1 - on / off;
      });
    const row = (label: string, pick: (r: WriteRound) => number, digits: number, cost: boolean) => {
      const overheads = pairs(pick, cost);
      const list = (mode: 'on' | 'off') =>
        of(mode, pick)
          .map((x) => x.toFixed(digits))
          .join(', ');
      return (
        `| ${label} | ${median(of('off', pick)).toFixed(digits)} (${list('off')}) | ` +
        `${median(of('on', pick)).toFixed(digits)} (${list('on')}) | ` +
        `**${(median(overheads) * 100).toFixed(1)} %** (${overheads.map((x) => `${(x * 100).toFixed(0)}`).join(', ')}) |`
      );
    };
    lines.push(
      '',
      '| accrual-like writes, 8 clients | triggers off: median (rounds) | triggers on: median (rounds) | overhead: median of pairs (pairs, %) |',
      '|---|---|---|---|',
      row('throughput, tx/s', (r) => r.tps, 0, false),
      row('database CPU per transaction, ms', (r) => r.databaseCpuMs, 3, true),
      row('client CPU per transaction, ms', (r) => r.clientCpuMs, 3, true),
    );
  }
  console.log(`\n${lines.join('\n')}\n\nload average at the end: ${load()}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
