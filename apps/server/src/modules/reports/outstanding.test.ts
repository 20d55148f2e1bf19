import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { lotsOutstanding, lotsOutstandingReference, rebuildLotsOutstanding } from './outstanding.repository';

// Lots written straight to their table (this tests the rollup of migration 026, not the ledger), so the
// ledger's lot proof is off for this file.
const ctx = await createTestContext({}, { verifyLots: false });
const db = ctx.database.db;

const accounts: string[] = [];
for (let i = 0; i < 2; i++) {
  const row = await db
    .insertInto('accounts')
    .values({ client_id: `OUTSTANDING-${i}` })
    .returning('id')
    .executeTakeFirstOrThrow();
  accounts.push(row.id);
}

// Minutes from now, on both sides of the edges the read splits at: now, the next hour, 30 days ahead.
const MINUTES = [-4320, -61, -30, -1, 0, 1, 5, 59, 61, 180, 1440, 43_139, 43_199, 43_201, 43_260, 50_000];
const minute = fc.constantFrom(...MINUTES);
const lot = fc.record({
  account: fc.nat({ max: accounts.length - 1 }),
  available: minute,
  expires: fc.option(minute, { nil: null }),
  cents: fc.integer({ min: 1, max: 100_000 }),
});
const command = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), lots: fc.array(lot, { minLength: 1, maxLength: 3 }) }),
  fc.record({ kind: fc.constant('spend' as const), pick: fc.nat(), share: fc.constantFrom(0, 0.5, 1) }),
  fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), available: minute, expires: minute }),
  fc.record({ kind: fc.constant('expire-account' as const), account: fc.nat({ max: accounts.length - 1 }) }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
);
type Command = typeof command extends fc.Arbitrary<infer C> ? C : never;

/** Both figures as numbers (a sum of rows that net to zero reads '0.00', an empty one '0'). */
async function figures(read: typeof lotsOutstanding) {
  const { pending, expiring30Days } = await read(db);
  return { pending: Number(pending), expiring30Days: Number(expiring30Days) };
}

const at = (minutes: number) => sql`now() + ${minutes} * interval '1 minute'`;

/** The id of the `pick`-th lot (modulo how many there are), or null when there is none. */
async function pickLot(pick: number): Promise<string | null> {
  const { rows } = await sql<{ id: string }>`select id from lots order by id`.execute(db);
  return rows.length === 0 ? null : rows[pick % rows.length]!.id;
}

async function apply(c: Command): Promise<void> {
  if (c.kind === 'insert') {
    // One statement for all of them, as a bulk credit writes its lots.
    const values = c.lots.map((l) => {
      const expires = l.expires === null ? sql`null` : at(Math.max(l.expires, l.available));
      return sql`(${accounts[l.account]}::uuid, ${at(l.available)} - interval '1 day', ${at(l.available)},
        ${expires}, ${l.cents / 100}::numeric, ${l.cents / 100}::numeric)`;
    });
    await sql`insert into lots (account_id, earned_at, available_at, expires_at, points, remaining)
      values ${sql.join(values)}`.execute(db);
    return;
  }
  if (c.kind === 'expire-account') {
    await sql`update lots set remaining = 0
      where account_id = ${accounts[c.account]}::uuid and expires_at <= now() + interval '2 days'`.execute(
      db,
    );
    return;
  }
  const id = await pickLot(c.pick);
  if (!id) return;
  if (c.kind === 'spend') {
    await sql`update lots set remaining = round(remaining * ${c.share}, 2) where id = ${id}::uuid`.execute(
      db,
    );
  } else if (c.kind === 'move') {
    await sql`update lots set earned_at = ${at(c.available)} - interval '1 day', available_at = ${at(c.available)},
      expires_at = case when expires_at is null then null else ${at(Math.max(c.available, c.expires))} end
      where id = ${id}::uuid`.execute(db);
  } else {
    await sql`delete from lots where id = ${id}::uuid`.execute(db);
  }
}

describe('lots outstanding (pending, expiring in 30 days) from the hourly rollup', () => {
  it('equals the sums over every lot after random writes, and after a rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 12 }), async (commands) => {
        await sql`delete from lots`.execute(db);
        for (const c of commands) {
          await apply(c);
          expect(await figures(lotsOutstanding)).toEqual(await figures(lotsOutstandingReference));
        }
        await rebuildLotsOutstanding(db);
        expect(await figures(lotsOutstanding)).toEqual(await figures(lotsOutstandingReference));
      }),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 40) },
    );
  }, 300_000);

  it('writes nothing for a lot whose hours are past, and still counts it as overdue', async () => {
    await sql`delete from lots`.execute(db);
    const rollup = () =>
      sql`select kind, bucket, shard, remaining::text from lots_outstanding_hours order by 1, 2, 3`.execute(
        db,
      );
    const before = (await rollup()).rows;
    await apply({ kind: 'insert', lots: [{ account: 0, available: -4320, expires: -61, cents: 500 }] });
    expect((await rollup()).rows).toEqual(before);
    expect(await figures(lotsOutstanding)).toEqual({ pending: 0, expiring30Days: 5 });
  });
});
