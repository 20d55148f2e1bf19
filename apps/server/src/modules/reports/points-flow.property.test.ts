import type { PointsFlowReport } from '@loyalty/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { inTransaction } from '../../db/transaction';
import { verifyLedger } from '../ledger/verify-ledger';
import { referenceFlowSource } from './points-flow.repository';
import { pointsFlow } from './points-flow.service';
import { ACCOUNTS, apply, BASE, command, DAY, DAYS, POS_KEYS, type World } from './points-flow-workload';

// The workload writes operations and balances as the ledger does, but not their lots (issue 9).
const ctx = await createTestContext({}, { verifyLots: false });
const db = ctx.database.db;

const posKeys: string[] = [];
for (let i = 0; i < POS_KEYS; i++) {
  const row = await db
    .insertInto('pos_keys')
    .values({ name: `Till ${i}`, key_hash: `flow-h${i}`, key_cipher: `c${i}`, status: 'active' })
    .returning('id')
    .executeTakeFirstOrThrow();
  posKeys.push(row.id);
}

async function freshWorld(): Promise<World> {
  // Deletes, not TRUNCATE, so the rollup's delete trigger runs too.
  await db.deleteFrom('operations').execute();
  await db.deleteFrom('accounts').execute();
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const row = await db
      .insertInto('accounts')
      .values({ client_id: `flow-${i}` })
      .returning('id')
      .executeTakeFirstOrThrow();
    accounts.push(row.id);
  }
  return { accounts, posKeys, ops: [] };
}

interface Query {
  from: string;
  to: string;
  groupBy: 'day' | 'month';
  posId?: string;
}

const day = (offset: number) => new Date(BASE + offset * DAY).toISOString().slice(0, 10);

async function report(query: Query): Promise<PointsFlowReport> {
  const res = await ctx.app.inject({
    url: `/api/v1/reports/points-flow?${new URLSearchParams({ ...query })}`,
    headers: bearer(ctx.tokens.MANAGER),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function sumOfBalances(): Promise<number> {
  const { rows } = await sql<{
    s: string;
  }>`select coalesce(sum(balance), 0)::text as s from accounts`.execute(db);
  return Number(rows[0]!.s);
}

/** The rollup's answer equals the raw recomputation, and rolls forward: closing = next opening. */
async function expectReconciles(query: Query): Promise<PointsFlowReport> {
  const answer = await report(query);
  expect(answer).toEqual(await pointsFlow(db, query, referenceFlowSource));
  answer.rows.forEach((row, i) => {
    const next = answer.rows[i + 1];
    if (next) expect(next.opening).toBe(row.closing);
    const closing = row.opening + row.earned + row.adjusted - row.redeemed - row.returned - row.expired;
    expect(row.closing).toBeCloseTo(closing, 2);
  });
  expect(answer.totals.opening).toBe(answer.rows[0]!.opening);
  expect(answer.totals.closing).toBe(answer.rows.at(-1)!.closing);
  return answer;
}

const randomQuery = fc
  .record({
    from: fc.integer({ min: -2, max: DAYS + 1 }),
    length: fc.nat({ max: DAYS + 2 }),
    groupBy: fc.constantFrom<'day' | 'month'>('day', 'month'),
    pos: fc.integer({ min: -1, max: POS_KEYS - 1 }),
  })
  .map(({ from, length, groupBy, pos }): Query => {
    const query: Query = { from: day(from), to: day(from + length), groupBy };
    return pos < 0 ? query : { ...query, posId: posKeys[pos]! };
  });

// The workload's days are 29 March … 2 April 2025.
const WHOLE_MONTHS = [
  ['2025-02-15', '2025-05-10'],
  ['2025-03-01', '2025-04-30'],
  ['2025-01-10', '2025-03-30'],
  ['2025-01-01', '2025-03-31'],
  ['2025-02-01', '2025-04-01'],
] as const;

describe('points-flow report equals the ledger', () => {
  it('over random workloads: rollup = raw recomputation, closing = next opening, last closing = Σ balances', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(command, { minLength: 1, maxLength: 5 }), { maxLength: 10 }),
        randomQuery,
        async (transactions, query) => {
          const world = await freshWorld();
          for (const batch of transactions) {
            await inTransaction(db, async (trx) => {
              for (const c of batch) await apply(trx, world, c);
            });
          }
          expect((await verifyLedger(db)).differences).toEqual([]);
          await expectReconciles(query);
          for (const groupBy of ['day', 'month'] as const) {
            const whole = await expectReconciles({ from: day(-1), to: day(DAYS), groupBy });
            expect(whole.rows[0]!.opening).toBe(0);
            expect(whole.rows.at(-1)!.closing).toBe(await sumOfBalances());
          }
          // By month over whole months (read as month rows, the edge days as day rows), and windows that
          // end before or inside the workload's days (what follows them comes off Σ balances).
          for (const [from, to] of WHOLE_MONTHS) await expectReconciles({ from, to, groupBy: 'month' });
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 40) },
    );
  }, 600_000);
});
