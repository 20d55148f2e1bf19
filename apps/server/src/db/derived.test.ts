import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';
import { createCard } from '../modules/pos/pos.fixtures';
import { rebuildDerivedTables } from './derived';
import { derivedSnapshot } from './derived-snapshot';

const ctx = await createTestContext();
const db = ctx.database.db;

const total = async (path: string): Promise<number> => {
  const res = await ctx.app.inject({ url: `/api/v1/${path}`, headers: bearer(ctx.tokens.VIEWER) });
  expect(res.statusCode).toBe(200);
  return res.json().totalElements;
};

/** The list totals the row counters answer: plain, filtered, and short searches (search counters). */
const totals = async () => ({
  operations: await total('operations'),
  completed: await total('operations?status=completed'),
  operationSearch: await total('operations?search=1'),
  cards: await total('cards'),
  activeCards: await total('cards?status=active'),
  accounts: await total('accounts'),
  accountSearch: await total('accounts?search=cl'),
});

/** What the triggers kept equals a rebuild from the raw tables (the rebuild is then a no-op). */
async function expectDerivedEqualsRebuild(): Promise<void> {
  const kept = await derivedSnapshot(db);
  await rebuildDerivedTables(db);
  expect(await derivedSnapshot(db)).toEqual(kept);
}

describe('TRUNCATE resets what is derived from the truncated table', () => {
  it('operations: its counters and rollups go, the cards and accounts counters stay', async () => {
    for (let i = 0; i < 3; i++) await createCard(db, { balance: 10 + i });
    expect(await totals()).toEqual({
      operations: 3,
      completed: 3,
      operationSearch: expect.any(Number),
      cards: 3,
      activeCards: 3,
      accounts: 3,
      accountSearch: 3,
    });

    // CASCADE: receipts and idempotency records hang off operations.
    await sql`truncate operations cascade`.execute(db);
    expect(await totals()).toMatchObject({
      operations: 0,
      completed: 0,
      operationSearch: 0,
      cards: 3,
      accounts: 3,
    });
    await expectDerivedEqualsRebuild();
  });

  it('accounts: with the cards and operations it cascades to, every counter reads zero', async () => {
    await sql`truncate accounts cascade`.execute(db);
    expect(await totals()).toEqual({
      operations: 0,
      completed: 0,
      operationSearch: 0,
      cards: 0,
      activeCards: 0,
      accounts: 0,
      accountSearch: 0,
    });
    await expectDerivedEqualsRebuild();
    expect(await derivedSnapshot(db)).toMatchObject({ accountDays: [], hourly: [], cardCounts: [] });
  });
});
