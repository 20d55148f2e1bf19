import type { AnalyticsGroupBy } from '@loyalty/contracts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { derivedSnapshot } from '../../db/derived-snapshot';
import { inTransaction } from '../../db/transaction';
import { cardsAnalytics, operationsAnalytics, pointsSummary, retentionAnalytics } from './analytics.service';
import { referenceSource } from './analytics-reference.repository';
import { rebuildRollups } from './rollups.repository';
import { ACCOUNTS, apply, BASE, command, HOUR, HOURS, type World } from './rollups-workload';

// The workload writes balances and operations independently of each other on purpose (it exercises the
// rollups, not the ledger), so this file opts out of the ledger check after its tests.
const ctx = await createTestContext({}, { verifyLedger: false });
const db = ctx.database.db;

async function freshWorld(): Promise<World> {
  // Row deletes, not TRUNCATE: every row trigger (rollups, row counters) sees them, so the test does not
  // depend on which derived tables also handle TRUNCATE. Self-references go in the same statement.
  await db.deleteFrom('operations').execute();
  await db.deleteFrom('cards').execute();
  await db.deleteFrom('accounts').execute();
  const accounts: string[] = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const row = await db
      .insertInto('accounts')
      .values({ client_id: `prop-${i}`, balance: i * 10, held_balance: i })
      .returning('id')
      .executeTakeFirstOrThrow();
    accounts.push(row.id);
  }
  return { accounts, ops: [], cards: [] };
}

interface Range {
  from: string;
  to: string;
  groupBy?: AnalyticsGroupBy;
}

const get = async (path: string) => {
  const res = await ctx.app.inject({ url: `/api/v1/analytics/${path}`, headers: bearer(ctx.tokens.VIEWER) });
  expect(res.statusCode).toBe(200);
  return res.json();
};

/** Every endpoint's answer (from the rollups, over HTTP) equals the raw-table reference. */
async function expectEndpointsMatchReference(ranges: Range[]): Promise<void> {
  for (const range of ranges) {
    const query = new URLSearchParams(range as unknown as Record<string, string>).toString();
    expect(await get(`operations?${query}`)).toEqual(await operationsAnalytics(db, range, referenceSource));
    expect(await get(`cards?${query}`)).toEqual(await cardsAnalytics(db, range, referenceSource));
    expect(await get(`retention?${query}`)).toEqual(await retentionAnalytics(db, range, referenceSource));
  }
  const { calculatedAt: _a, ...fromRollups } = await get('bonuses-circulation');
  const { calculatedAt: _b, ...fromRaw } = await pointsSummary(db, referenceSource);
  expect(fromRollups).toEqual(fromRaw);
}

/** The rollups by meaning (derivedSnapshot: account-days row for row, counters as sums over shards). */
async function expectRebuildIdentical(): Promise<void> {
  const maintained = await derivedSnapshot(db);
  await rebuildRollups(db);
  expect(await derivedSnapshot(db)).toEqual(maintained);
}

const iso = (ms: number) => new Date(ms).toISOString();
const fixedRanges: Range[] = [
  { from: iso(BASE), to: iso(BASE + HOURS * HOUR), groupBy: 'hour' },
  { from: iso(BASE - 24 * HOUR), to: iso(BASE + (HOURS + 24) * HOUR) },
  { from: iso(BASE + 1), to: iso(BASE + 24 * HOUR - 1) },
];
const randomRange = fc
  .tuple(
    fc.integer({ min: -2 * HOUR, max: (HOURS + 2) * HOUR }),
    fc.integer({ min: 1, max: (HOURS + 2) * HOUR }),
    fc.constantFrom<AnalyticsGroupBy | undefined>('hour', 'day', undefined),
  )
  .map(([from, length, groupBy]): Range => {
    const range: Range = { from: iso(BASE + from), to: iso(BASE + from + length) };
    return groupBy ? { ...range, groupBy } : range;
  });

describe('rollups equal the raw computation', () => {
  it('after random workloads of operations, cards and balances; rebuild yields identical tables', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(command, { minLength: 1, maxLength: 6 }), { maxLength: 12 }),
        randomRange,
        async (transactions, range) => {
          const world = await freshWorld();
          for (const batch of transactions) {
            await inTransaction(db, async (trx) => {
              for (const c of batch) await apply(trx, world, c);
            });
          }
          await expectEndpointsMatchReference([...fixedRanges, range]);
          await expectRebuildIdentical();
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 60) },
    );
    // A bound for a hang, not a budget: the run count is fixed, and 60 runs took 34 s alone and over 120 s at
    // load average 30 (six other suites on the two cores).
  }, 600_000);

  it('under concurrent writers of the same hours and accounts', async () => {
    const world = await freshWorld();
    const writer = async (worker: number) => {
      const mine: string[] = [];
      for (let i = 0; i < 25; i++) {
        const acc = world.accounts[(worker + i) % ACCOUNTS]!;
        await inTransaction(db, async (trx) => {
          if (i % 5 === 4 && mine.length) {
            await trx
              .updateTable('operations')
              .set({ status: 'voided' })
              .where('id', '=', mine.pop()!)
              .execute();
          } else if (i % 7 === 6 && mine.length) {
            await trx.deleteFrom('operations').where('id', '=', mine.shift()!).execute();
          } else {
            const row = await trx
              .insertInto('operations')
              .values({
                type: 'accrual',
                status: i % 3 === 0 ? 'failed' : 'completed',
                points: 1 + i,
                account_id: acc,
                created_at: iso(BASE + (i % 2) * HOUR + worker),
              })
              .returning('id')
              .executeTakeFirstOrThrow();
            mine.push(row.id);
          }
          await trx
            .updateTable('accounts')
            .set({ balance: sql`balance + 1` })
            .where('id', '=', acc)
            .execute();
        });
      }
    };
    await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(writer));
    await expectEndpointsMatchReference(fixedRanges);
    await expectRebuildIdentical();
  }, 60_000);
});
