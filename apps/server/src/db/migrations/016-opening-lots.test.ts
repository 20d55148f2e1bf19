import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { ledgerIsSound, verifyLedger } from '../../modules/ledger/verify-ledger';
import { createPosKey, createRuleset, newCardNumber, opId, till } from '../../modules/pos/pos.fixtures';
import { migrateToLatest } from '../migrate';

// A database as it was before points lots (every migration up to 014), with a ledger written the way that
// code wrote it, then migrated in place to 015 and 016. Every later migration that builds on lots (023's
// index, 026's rollup of the lots) is held back with them: list it here, or this database cannot be built.
const LOTS_MIGRATIONS = [
  '015-points-lots',
  '016-opening-lots',
  '023-lots-pending-index',
  '026-finance-rollups',
];
const ctx = await createTestContext({}, { skipMigrations: LOTS_MIGRATIONS });
const db = ctx.database.db;
const DAY = 86_400_000;

/** An account with a card and the given operations; its balance and held balance are what they justify. */
async function account(
  ops: Array<{
    type: string;
    status: string;
    points: number;
    daysAgo: number;
    posId?: string;
    holdId?: string;
  }>,
) {
  const number = newCardNumber();
  const balance = ops.filter((o) => o.status === 'completed').reduce((s, o) => s + o.points, 0);
  const held = ops
    .filter((o) => o.type === 'hold' && o.status === 'active')
    .reduce((s, o) => s - o.points, 0);
  const { rows } = await sql<{ id: string; card_id: string }>`
    with a as (
      insert into accounts (client_id, balance, held_balance, created_at)
      values (${`client-${number}`}, ${balance}, ${held}, now() - interval '30 days') returning id
    )
    insert into cards (number, account_id, status, issued_at) select ${number}, a.id, 'active', now() from a
    returning account_id as id, id as card_id`.execute(db);
  const { id, card_id } = rows[0]!;
  for (const o of ops)
    await sql`insert into operations (id, type, status, points, account_id, card_id, card_number, pos_id,
        expires_at, created_at)
      values (coalesce(${o.holdId ?? null}::uuid, gen_random_uuid()), ${o.type}, ${o.status}, ${o.points}, ${id}::uuid,
        ${card_id}::uuid, ${number}, ${o.posId ?? null}::uuid,
        ${o.type === 'hold' ? new Date(Date.now() + 3_600_000) : null}, ${new Date(Date.now() - o.daysAgo * DAY)})`.execute(
      db,
    );
  return { id, number };
}

describe('migrations 015 and 016 (points lots, opening lots)', () => {
  it('an existing ledger verifies before and after; every balance becomes one opening lot the ledger then spends', async () => {
    const { rows: applied } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(applied.map((r) => r.name)).toContain('014-events');
    expect(applied.map((r) => r.name)).not.toContain('015-points-lots');
    const key = await createPosKey(ctx);
    const pos = till(ctx, key.apiKey);
    await createRuleset(db, { version: 1, percent: 10 });
    const holdId = crypto.randomUUID();
    const a = await account([
      { type: 'accrual', status: 'completed', points: 30, daysAgo: 5 },
      { type: 'accrual', status: 'completed', points: 20, daysAgo: 2 },
      { type: 'redemption', status: 'completed', points: -15, daysAgo: 1 },
      { type: 'hold', status: 'active', points: -5, daysAgo: 0, posId: key.id, holdId },
      { type: 'accrual', status: 'failed', points: 99, daysAgo: 0 },
    ]);
    const b = await account([{ type: 'adjustment', status: 'completed', points: 10, daysAgo: 1 }]);
    const spent = await account([
      { type: 'accrual', status: 'completed', points: 10, daysAgo: 3 },
      { type: 'redemption', status: 'completed', points: -10, daysAgo: 3 },
    ]);
    const empty = await account([]);

    // Before: every balance is its operations' (the proof as it was before lots).
    const { rows: off } = await sql`
      select a.id from accounts a
      left join (select account_id, sum(points) filter (where status = 'completed') as s from operations
        group by account_id) o on o.account_id = a.id
      where a.balance <> coalesce(o.s, 0)`.execute(db);
    expect(off).toEqual([]);

    expect(await migrateToLatest(db)).toEqual(LOTS_MIGRATIONS);
    const report = await verifyLedger(db);
    expect(ledgerIsSound(report), JSON.stringify(report)).toBe(true);

    const lots = await sql<{
      account_id: string;
      points: string;
      remaining: string;
      earned_at: Date;
      expires_at: Date | null;
    }>`
      select account_id, points::text, remaining::text, earned_at, expires_at from lots`.execute(db);
    const lotOf = (id: string) => lots.rows.filter((l) => l.account_id === id);
    expect(lotOf(a.id)).toHaveLength(1);
    expect(lotOf(a.id)[0]).toMatchObject({ points: '35.00', remaining: '35.00', expires_at: null });
    // Earned at the last credit (the failed accrual is no credit).
    expect(Math.round((Date.now() - lotOf(a.id)[0]!.earned_at.getTime()) / DAY)).toBe(2);
    expect(lotOf(b.id)[0]).toMatchObject({ points: '10.00', remaining: '10.00' });
    expect(lotOf(spent.id)).toEqual([]);
    expect(lotOf(empty.id)).toEqual([]);

    // The ledger carries on from the opening lots.
    expect((await pos.capture(holdId, { operationId: opId('cap') })).statusCode).toBe(200);
    const accrual = opId('acc');
    expect(
      (
        await pos.accrue({
          operationId: accrual,
          cardNumber: b.number,
          receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 100 }] },
        })
      ).statusCode,
    ).toBe(201);
    expect((await pos.hold({ operationId: opId('h'), cardNumber: b.number, points: 15 })).statusCode).toBe(
      201,
    );
    expect((await pos.returns({ operationId: opId('ret'), originalOperationId: accrual })).statusCode).toBe(
      201,
    );
    expect((await pos.card(a.number)).json()).toMatchObject({
      balance: 30,
      availableBalance: 30,
      pendingBalance: 0,
    });
    const after = await verifyLedger(db);
    expect(ledgerIsSound(after), JSON.stringify(after)).toBe(true);
  });
});
