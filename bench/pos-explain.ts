import { randomBytes } from 'node:crypto';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { Db } from '../apps/server/src/db/connection';
import { discardingLostConnections } from '../apps/server/src/db/pg-pool';
import { statementNamer } from '../apps/server/src/db/prepared-statements';

/**
 * `BENCH_EXPLAIN=1 npm run bench:pos`: after the phases, the plan and time of every statement one accrual,
 * one hold and its capture run (issue 13 "Must show"), on the bench's database as the load left it. The
 * real app serves the three requests on one connection with PostgreSQL's auto_explain on (analyze, buffers,
 * nested statements, so the derived-data triggers' statements show too); its LOG lines come back to this
 * client as notices. Statements are sent as the server sends them (prepared from their second run).
 */
export async function explainHotPath(databaseUrl: string, apiKey: string, card: string, secretHex: string) {
  const plans: string[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  pool.on('connect', (client) => {
    client.on('notice', (notice) => {
      if (notice.message?.startsWith('duration:')) plans.push(notice.message);
    });
    void client.query(`load 'auto_explain'; set auto_explain.log_min_duration = 0;
      set auto_explain.log_analyze = on; set auto_explain.log_buffers = on; set auto_explain.log_timing = on;
      set auto_explain.log_nested_statements = on; set client_min_messages = log`);
  });
  const db: Db = new Kysely({
    dialect: new PostgresDialect({ pool: discardingLostConnections(pool, statementNamer()) }),
  });
  const app = await buildApp({
    config: loadConfig({
      LOG_LEVEL: 'warn',
      HOLD_SWEEP_INTERVAL_MS: '0',
      WEBHOOK_POLL_INTERVAL_MS: '0',
    }),
    database: { db, kind: 'postgres', close: () => db.destroy() },
    secrets: { jwtSecret: randomBytes(32).toString('hex'), posKeySecret: secretHex },
  });
  const post = async (url: string, body: object) => {
    const res = await app.inject({ method: 'POST', url, headers: { 'x-api-key': apiKey }, payload: body });
    return res.json() as Record<string, unknown>;
  };
  const out: string[] = [];
  const summary: string[] = [];
  const section = async (name: string, run: () => Promise<unknown>) => {
    plans.length = 0;
    await run();
    out.push(`\n#### ${name}: ${plans.length} statements\n\n\`\`\`\n${plans.join('\n\n')}\n\`\`\``);
    // One line per statement: its time and what it is (foreign-key checks and trigger statements included).
    const rows = plans.map((plan) => {
      const ms = /^duration: ([\d.]+) ms/.exec(plan)?.[1] ?? '?';
      const text =
        /Query Text:([\s\S]*?)\n(?=[A-Z][\w ]+ {2}\(cost|[A-Z][\w ]+\s+\(actual)/.exec(plan)?.[1] ?? '';
      return `| ${ms} | \`${text.replace(/\s+/g, ' ').trim().slice(0, 110).replaceAll('|', '\\|')}\` |`;
    });
    summary.push(`\n${name}:\n\n| ms | statement |\n|---:|---|\n${rows.join('\n')}`);
  };
  // Each write twice, the first unrecorded: a fresh backend compiles the trigger functions and plans their
  // statements on first use (tens of ms), which the server's long-lived connections paid long ago.
  const writes = async (id: string) => {
    await section('accrual (5-line receipt)', () =>
      post('/pos/api/v1/accruals', {
        operationId: `${id}-a`,
        cardNumber: card,
        receipt: {
          receiptId: `${id}-r`,
          items: Array.from({ length: 5 }, (_, i) => ({ sku: `SKU-${i}`, quantity: 1, price: 10 + i })),
        },
      }),
    );
    let holdId = '';
    await section('hold', async () => {
      holdId = String(
        (await post('/pos/api/v1/holds', { operationId: `${id}-h`, cardNumber: card, points: 2 })).holdId,
      );
    });
    await section('capture', () =>
      post(`/pos/api/v1/holds/${holdId}/capture`, { operationId: `${id}-c`, points: 1 }),
    );
  };
  for (const round of ['warm-up', 'measured']) await writes(`explain-${round}-${Date.now()}`);
  await app.close();
  await db.destroy();
  return { summary: summary.slice(3).join('\n'), full: out.slice(3).join('\n') };
}
