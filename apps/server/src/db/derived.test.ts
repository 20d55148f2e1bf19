import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';
import { createCard } from '../modules/pos/pos.fixtures';
import { derivedSnapshot, snapshotAndRebuild } from './derived-snapshot';

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
  const { kept, rebuilt } = await snapshotAndRebuild(db);
  expect(rebuilt).toEqual(kept);
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

describe('statements of many rows', () => {
  it('keep every derived table equal to a rebuild through inserts, updates, renames and deletes', async () => {
    await sql`
      with a as (
        insert into accounts (client_id, balance, held_balance)
          select 'bulk-' || i, i, i / 2 from generate_series(1, 30) i returning id, client_id
      )
      insert into cards (number, account_id, status, issued_at)
        select '7' || lpad(substr(client_id, 6), 15, '0'), id, case when substr(client_id, 6)::int % 3 = 0 then 'blocked' else 'active' end,
               timestamptz '2026-03-01 10:00Z' + (substr(client_id, 6)::int || ' hours')::interval
        from a`.execute(db);
    await sql`
      insert into operations (operation_id, type, status, points, account_id, card_id, card_number, created_at)
        select 'bulk-op-' || i, (array['accrual', 'redemption', 'hold', 'adjustment'])[1 + i % 4],
               (array['completed', 'failed', 'active', 'completed', 'voided'])[1 + i % 5],
               (i % 7) - 3, case when i % 9 = 0 then null else c.account_id end, c.id, c.number,
               timestamptz '2026-03-01 22:30Z' + (i * 17 || ' minutes')::interval
        from generate_series(1, 90) i join lateral (
          select id, account_id, number from cards order by number offset i % 30 limit 1
        ) c on true`.execute(db);
    await sql`insert into audit_log (username, message, target_type, target_id)
      select 'bulk', 'bulk entry ' || i, (array['user', 'card', 'account', 'pos_key'])[1 + i % 4], i::text
      from generate_series(1, 40) i`.execute(db);
    await expectDerivedEqualsRebuild();

    await sql`update operations set status = case status when 'completed' then 'voided' else 'completed' end,
      points = points + 1 where operation_id like 'bulk-op-%' and points >= 0`.execute(db);
    await sql`update operations set created_at = created_at + interval '5 hours'
      where operation_id like 'bulk-op-1%'`.execute(db);
    await sql`update accounts set client_id = upper(client_id) || 'x', balance = balance + 1
      where client_id like 'bulk-1%'`.execute(db);
    await sql`update cards set status = 'blocked', issued_at = issued_at - interval '1 day'
      where number like '70000000000000_1'`.execute(db);
    await sql`update audit_log set target_type = 'ruleset' where username = 'bulk' and target_id like '1%'`.execute(
      db,
    );
    await sql`update audit_log set message = 'redacted' where username = 'bulk' and target_id like '2%'`.execute(
      db,
    );
    await expectDerivedEqualsRebuild();

    await sql`delete from operations where operation_id like 'bulk-op-%' and points < 1`.execute(db);
    await sql`delete from operations where operation_id like 'bulk-op-2%'`.execute(db);
    await sql`delete from audit_log where username = 'bulk' and target_id like '3%'`.execute(db);
    await expectDerivedEqualsRebuild();
    await sql`truncate accounts cascade`.execute(db);
    await sql`truncate audit_log`.execute(db);
    await expectDerivedEqualsRebuild();
  });
});
