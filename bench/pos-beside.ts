import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import type { Db } from '../apps/server/src/db/connection';
import { seedPosKeys } from './bench-pos-keys';

/**
 * POS accruals at a fixed rate against the real server (a child process on the bench database), to time
 * what tills see while something else works on the same database: `bench:points-expiry --pos-rate N`
 * runs it once alone (the anchor) and once beside the sweeper. A fixed rate rather than as fast as
 * possible, so both runs offer the same load and their latencies compare; autocannon does not correct for
 * coordinated omission, so a stalled request delays the ones behind it on its connection (the p99 is, if
 * anything, flattered).
 */
export interface PosBeside {
  /** Accruals at `rate` per second over 8 connections until `stop` resolves; latencies in ms. */
  accrueUntil(rate: number, stop: Promise<unknown>): Promise<PosLatency>;
  close(): Promise<void>;
}

export interface PosLatency {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Active cards of the accounts the sweep will expire (their rows are the ones it locks), chosen at random.
 */
async function dueCards(db: Db, count: number): Promise<string[]> {
  const { rows } = await sql<{ number: string }>`
    select c.number from cards c
    where c.status = 'active' and c.account_id in (
      select account_id from lots where remaining > 0 and expires_at <= now() limit ${count * 4})
    order by random() limit ${count}`.execute(db);
  return rows.map((r) => r.number);
}

async function startServer(databaseUrl: string, port: number, posKeySecret: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      POS_KEY_SECRET: posKeySecret,
      JWT_SECRET: randomBytes(32).toString('hex'),
      // The bench process sweeps; the server's own sweepers stay off so the anchor run is quiet.
      POINTS_EXPIRY_INTERVAL_MS: '0',
      HOLD_SWEEP_INTERVAL_MS: '0',
      WEBHOOK_POLL_INTERVAL_MS: '0',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  // Ready when /readyz answers 200 (polled: the server's start-up includes migrations and pool warm-up).
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function startPosBeside(db: Db, databaseUrl: string, port: number): Promise<PosBeside> {
  const secret = randomBytes(32).toString('hex');
  // Two keys of our own: the dataset's keys have no plain text.
  const keys = await seedPosKeys(db, secret, 2, `Expiry bench till ${process.pid}`);
  const cards = await dueCards(db, 20_000);
  if (cards.length === 0) throw new Error('no active card of an account with due lots');
  const server = await startServer(databaseUrl, port, secret);
  let seq = 0;
  const id = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq++}`;
  const body = () =>
    JSON.stringify({
      operationId: id('xa'),
      cardNumber: cards[Math.floor(Math.random() * cards.length)],
      receipt: {
        receiptId: id('xr'),
        items: Array.from({ length: 5 }, (_, i) => ({
          sku: `SKU-${i * 2}`,
          category: i % 2 ? 'grocery' : 'drinks',
          quantity: 1 + (seq % 3),
          price: 12.34 + i,
          discount: 0,
        })),
      },
    });

  return {
    async accrueUntil(rate, stop) {
      let keyIndex = 0;
      let finished: (result: autocannon.Result) => void = () => {};
      const done = new Promise<autocannon.Result>((ok) => (finished = ok));
      // The callback form returns the instance, which can be stopped when `stop` resolves.
      const instance = autocannon(
        {
          url: `http://127.0.0.1:${port}`,
          connections: 8,
          overallRate: rate,
          duration: 3600,
          setupClient: (client) =>
            client.setHeaders({
              'content-type': 'application/json',
              'x-api-key': keys[keyIndex++ % keys.length]!,
            }),
          requests: [
            {
              method: 'POST',
              path: '/pos/api/v1/accruals',
              setupRequest: (req) => ({ ...req, body: body() }),
            },
          ],
        },
        (error, result) => {
          if (error) throw error;
          finished(result);
        },
      );
      await stop;
      instance.stop();
      const result = await done;
      return {
        requests: result.requests.total,
        p50: result.latency.p50,
        p99: result.latency.p99,
        max: result.latency.max,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      };
    },
    async close() {
      const exited = new Promise((ok) => server.once('exit', ok));
      server.kill('SIGTERM');
      await exited;
    },
  };
}
