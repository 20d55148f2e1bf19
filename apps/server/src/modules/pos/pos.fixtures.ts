import { randomBytes, randomInt } from 'node:crypto';
import type { RulesetAdvanced } from '@loyalty/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { type Kysely, sql } from 'kysely';
import { expect, vi } from 'vitest';
import { bearer, createTestContext, type TestContext } from '../../../test/helper';
import type { BatchQueue } from '../../db/batch-queue';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import type { SetBatchOptions } from '../ledger/set-batches';

/** Test helpers for the POS API: keys, rulesets, cards with a starting balance, and a till client. */

export interface PosTestFile {
  ctx: TestContext;
  db: Db;
  /** Two tills with keys of their own: the one the tests mostly use, and another POS. */
  pos: Till;
  other: Till;
  /** pos_keys.id of `pos`. */
  posId: string;
}

/**
 * The setup POS test files share: a database of their own with the hold sweeper off (time moves with
 * `expireHold`, never by waiting), two tills and, when asked, a ruleset in force (version 1), all made
 * before the first test, so no test depends on which runs first.
 */
export async function posTestFile(
  options: { ruleset?: { percent: number; excluded?: string[] } } = {},
): Promise<PosTestFile> {
  const ctx = await createTestContext();
  const db = ctx.database.db;
  const key = await createPosKey(ctx);
  const other = till(ctx, (await createPosKey(ctx)).apiKey);
  if (options.ruleset) await createRuleset(db, { version: 1, ...options.ruleset });
  return { ctx, db, pos: till(ctx, key.apiKey), other, posId: key.id };
}

export const newApiKey = () => randomBytes(24).toString('base64url');

export async function createPosKey(
  ctx: TestContext,
  values: { name?: string; address?: string | null; apiKey?: string; status?: 'active' | 'inactive' } = {},
) {
  const apiKey = values.apiKey ?? newApiKey();
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/pos-keys',
    headers: bearer(ctx.tokens.MANAGER),
    payload: {
      name: values.name ?? `Till ${randomInt(1e6)}`,
      address: values.address,
      apiKey,
      status: values.status,
    },
  });
  if (res.statusCode !== 201) throw new Error(`POS key not created: ${res.body}`);
  return { ...(res.json() as { id: string; name: string }), apiKey };
}

export async function createRuleset(
  db: Db,
  values: {
    version: number;
    percent: number;
    activeFrom?: Date | null;
    excluded?: string[];
    /** The config beyond percent (minSpend, caps, rules), stored as the API stores it. */
    earningRules?: Partial<RulesetAdvanced> | null;
  },
): Promise<string> {
  const row = await db
    .insertInto('rulesets')
    .values({
      version: values.version,
      percent: values.percent,
      earning_rules: values.earningRules ? JSON.stringify(values.earningRules) : null,
      active_from: values.activeFrom === undefined ? new Date(Date.now() - 60_000) : values.activeFrom,
      created_by: 'test',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const sku of values.excluded ?? []) {
    await db
      .insertInto('excluded_skus')
      .values({ ruleset_id: row.id, sku, description: null, category: null })
      .execute();
  }
  return row.id;
}

export const newCardNumber = () =>
  Array.from({ length: 16 }, (_, i) => (i === 0 ? randomInt(1, 10) : randomInt(10))).join('');

/** An account with one card; a starting balance is written as a completed accrual with its lot, so the ledger holds. */
export async function createCard(
  db: Db,
  values: { balance?: number; status?: 'active' | 'blocked' | 'pending' } = {},
) {
  const number = newCardNumber();
  const account = await db
    .insertInto('accounts')
    .values({ client_id: `client-${number}`, balance: values.balance ?? 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  const card = await db
    .insertInto('cards')
    .values({ number, account_id: account.id, status: values.status ?? 'active', issued_at: new Date() })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (values.balance) {
    const credit = await db
      .insertInto('operations')
      .values({
        type: 'accrual',
        status: 'completed',
        points: values.balance,
        account_id: account.id,
        card_id: card.id,
        card_number: number,
        meta: JSON.stringify({ reason: 'starting balance' }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Its lot, as the ledger writes one for every credit: available at once, never expiring.
    await db
      .insertInto('lots')
      .values({
        account_id: account.id,
        credit_id: credit.id,
        earned_at: new Date(),
        available_at: new Date(),
        points: values.balance,
        remaining: values.balance,
      })
      .execute();
  }
  return { number, accountId: account.id, cardId: card.id };
}

export async function accountOf(db: Db, accountId: string) {
  const row = await db
    .selectFrom('accounts')
    .select(['balance', 'held_balance'])
    .where('id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { balance: Number(row.balance), held: Number(row.held_balance) };
}

/** Makes a hold lapse now, as if its TTL had passed. */
export async function expireHold(db: Db, holdId: string) {
  await sql`update operations set expires_at = now() - interval '1 second' where id = ${holdId}::uuid`.execute(
    db,
  );
}

export interface Till {
  apiKey: string;
  call(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<LightMyRequestResponse>;
  card(number: string): Promise<LightMyRequestResponse>;
  accrue(body: unknown): Promise<LightMyRequestResponse>;
  preview(body: unknown): Promise<LightMyRequestResponse>;
  hold(body: unknown): Promise<LightMyRequestResponse>;
  capture(holdId: string, body: unknown): Promise<LightMyRequestResponse>;
  release(holdId: string, body: unknown): Promise<LightMyRequestResponse>;
  returns(body: unknown): Promise<LightMyRequestResponse>;
}

export function till(ctx: TestContext, apiKey: string): Till {
  const call: Till['call'] = (method, url, payload) =>
    ctx.app.inject({
      method,
      url,
      headers: { 'x-api-key': apiKey },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    apiKey,
    call,
    card: (number) => call('GET', `/pos/api/v1/cards/${number}`),
    accrue: (body) => call('POST', '/pos/api/v1/accruals', body),
    preview: (body) => call('POST', '/pos/api/v1/accruals/preview', body),
    hold: (body) => call('POST', '/pos/api/v1/holds', body),
    capture: (holdId, body) => call('POST', `/pos/api/v1/holds/${holdId}/capture`, body),
    release: (holdId, body) => call('POST', `/pos/api/v1/holds/${holdId}/release`, body),
    returns: (body) => call('POST', '/pos/api/v1/returns', body),
  };
}

let counter = 0;
export const opId = (prefix = 'op') => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** The transactions that wrote these operations (by operationId): one id means one transaction. */
export async function writers(db: Db, operationIds: string[]): Promise<string[]> {
  const { rows } = await sql<{ xid: string }>`
    select distinct xmin::text as xid from operations where operation_id = any(${operationIds}::text[])`.execute(
    db,
  );
  return rows.map((r) => r.xid);
}

export async function failedOperations(db: Db, error?: string) {
  let query = db.selectFrom('operations').selectAll().where('status', '=', 'failed');
  if (error) query = query.where(sql`meta->>'error'`, '=', error);
  return query.execute();
}

/**
 * Sends `requests` in order while `queue` starts no batch, each once the one before it waits in the queue;
 * once all of them wait, lets them go: they form one batch, in the order sent (group-commit tests).
 */
export async function inOneBatch<T>(
  queue: { pause(): () => void; queued(): number },
  requests: Array<() => Promise<T>>,
): Promise<T[]> {
  const resume = queue.pause();
  try {
    const answers: Array<Promise<T>> = [];
    for (const send of requests) {
      answers.push(send());
      await vi.waitFor(() => expect(queue.queued()).toBe(answers.length), { timeout: 60_000, interval: 2 });
    }
    resume();
    return await Promise.all(answers);
  } finally {
    resume();
  }
}

/**
 * The answers of a batch of four split by one operationId sent on its second and fourth writes: the first
 * and third get `success`, and of the two written alone one takes the operationId (`success`) and the other
 * is refused, whichever came first.
 */
export function expectSplitAsAlone(answers: LightMyRequestResponse[], success: number) {
  expect([answers[0]!.statusCode, answers[2]!.statusCode]).toEqual([success, success]);
  const contested = [answers[1]!, answers[3]!];
  expect(contested.map((a) => a.statusCode).sort()).toEqual([success, 409]);
  expect(contested.find((a) => a.statusCode === 409)!.json().code).toBe('OPERATION_ID_ALREADY_USED');
}

/**
 * A set-based batch kind turned on for a test file (`use`: its `use` on the file's database) with one lane of
 * 16, the batches it ran (size and outcome, emptied before each `inOneBatch`), and `inOneBatch` over its queue.
 */
export function recordedBatches(use: (options: SetBatchOptions) => BatchQueue<unknown> | null) {
  const batches: Array<{ size: number; outcome: string }> = [];
  const queue = use({ lanes: 1, maxBatch: 16, onBatch: (size, outcome) => batches.push({ size, outcome }) })!;
  return {
    batches,
    queue,
    inOneBatch<T>(requests: Array<() => Promise<T>>): Promise<T[]> {
      batches.length = 0;
      return inOneBatch(queue, requests);
    },
  };
}

/**
 * Runs `work` while a transaction of the test's own holds a row locked (`for update`), as another server's
 * write or an import would. `unlock` commits it; it is committed after `work` at the latest, and rolled back
 * when `work` fails, so a failing test leaves no lock behind for the next one. `locker` runs statements in
 * that transaction (e.g. deletes the row before `unlock`, as a request racing the queued one would).
 */
export async function whileLocked<T>(
  db: Db,
  row: { table: 'accounts' | 'operations' | 'users' | 'webhook_endpoints'; id: string },
  work: (unlock: () => Promise<void>, locker: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    let open = true;
    const unlock = async () => {
      if (!open) return;
      open = false;
      await sql`commit`.execute(conn);
    };
    try {
      await sql`select 1 from ${sql.table(row.table)} where id = ${row.id}::uuid for update`.execute(conn);
      const result = await work(unlock, conn);
      await unlock();
      return result;
    } finally {
      if (open) {
        open = false;
        await sql`rollback`.execute(conn).catch(() => undefined);
      }
    }
  });
}

/**
 * Sends a request that comes to wait for `row` (which the test locks meanwhile), deletes the row in that
 * lock's transaction and commits: the request then finds it gone, as when another request deleted it while
 * this one ran. Answers what the request answered. PostgreSQL only (PGlite runs one transaction at a time).
 */
export function deletedWhileWaiting<T>(
  db: Db,
  row: { table: 'users' | 'webhook_endpoints'; id: string },
  send: () => Promise<T>,
): Promise<T> {
  return whileLocked(db, row, async (unlock, locker) => {
    const waiting = send();
    await vi.waitFor(async () => expect(await lockWaits(db)).toBe(1), { timeout: 60_000, interval: 10 });
    await sql`delete from ${sql.table(row.table)} where id = ${row.id}::uuid`.execute(locker);
    await unlock();
    return waiting;
  });
}

/** Sessions of this database waiting for a lock: a write queued behind a row the test locked. */
export async function lockWaits(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
  return rows[0]!.n;
}
