import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { createCard } from '../pos/pos.fixtures';
import { ledgerIsSound, verifyLedger } from './verify-ledger';

// This file breaks the ledger on purpose to see it reported: no ledger check after it.
const ctx = await createTestContext({ HOLD_SWEEP_INTERVAL_MS: '0' }, { verifyLedger: false });
const db = ctx.database.db;

describe('verifyLedger', () => {
  it('finds nothing to report when every cached balance is its ledger', async () => {
    const card = await createCard(db, { balance: 12.5 });
    await db
      .insertInto('operations')
      .values([
        { type: 'hold', status: 'active', points: -2, account_id: card.accountId },
        { type: 'hold', status: 'voided', points: -3, account_id: card.accountId },
        { type: 'redemption', status: 'completed', points: -1.5, account_id: card.accountId },
        { type: 'accrual', status: 'failed', points: 99, account_id: card.accountId },
      ])
      .execute();
    await sql`update accounts set balance = 11, held_balance = 2 where id = ${card.accountId}::uuid`.execute(
      db,
    );
    // The redemption's 1.50 came out of the starting balance's lot.
    await sql`
      with l as (update lots set remaining = remaining - 1.5 where account_id = ${card.accountId}::uuid returning id)
      insert into lot_consumptions (operation_id, lot_id, points)
      select o.id, l.id, 1.5 from operations o, l where o.account_id = ${card.accountId}::uuid and o.type = 'redemption'`.execute(
      db,
    );
    const report = await verifyLedger(db);
    expect(report).toMatchObject({
      differences: [],
      holdsCapturedTwice: [],
      overReturnedLines: [],
      lots: { lotsOff: [], accountsOff: [], debitsOff: [] },
    });
    expect(report.accountsChecked).toBe(1);
    expect(ledgerIsSound(report)).toBe(true);
  });

  it('reports a balance or held balance that the ledger does not justify', async () => {
    const invented = await createCard(db, { balance: 5 });
    const lost = await createCard(db, { balance: 5 });
    await sql`update accounts set balance = 6 where id = ${invented.accountId}::uuid`.execute(db);
    await sql`update accounts set held_balance = 1 where id = ${lost.accountId}::uuid`.execute(db);
    const report = await verifyLedger(db);
    expect(ledgerIsSound(report)).toBe(false);
    expect(report.differences).toEqual(
      expect.arrayContaining([
        {
          accountId: invented.accountId,
          balance: '6.00',
          expectedBalance: '5.00',
          heldBalance: '0.00',
          expectedHeldBalance: '0.00',
        },
        {
          accountId: lost.accountId,
          balance: '5.00',
          expectedBalance: '5.00',
          heldBalance: '1.00',
          expectedHeldBalance: '0.00',
        },
      ]),
    );
    expect(report.differences).toHaveLength(2);
  });

  it('proves the lots: remaining against consumptions, Σ remaining against the balance, debits against what they took', async () => {
    const card = await createCard(db, { balance: 10 });
    const [lot] = await sql<{ id: string }>`select id from lots where account_id = ${card.accountId}::uuid`
      .execute(db)
      .then((r) => r.rows);
    // A redemption that took nothing from any lot, and a lot that lost points no debit took.
    const spent = await db
      .insertInto('operations')
      .values({ type: 'redemption', status: 'completed', points: -4, account_id: card.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql`update accounts set balance = 6 where id = ${card.accountId}::uuid`.execute(db);
    await sql`update lots set remaining = 7 where id = ${lot!.id}::uuid`.execute(db);
    const { lots } = await verifyLedger(db);
    expect(lots.lotsOff).toContain(lot!.id);
    expect(lots.accountsOff).toContain(card.accountId);
    expect(lots.debitsOff).toContain(spent.id);
  });
  it('proves consumptions from before the lots epoch and of what is not a debit', async () => {
    const card = await createCard(db, { balance: 10 });
    const [lot] = await sql<{ id: string }>`select id from lots where account_id = ${card.accountId}::uuid`
      .execute(db)
      .then((r) => r.rows);
    const epoch = (await sql<{ at: Date }>`select min(started_at) as at from lots_epoch`.execute(db)).rows[0]!
      .at;
    const before = new Date(epoch.getTime() - 86_400_000);
    const debit = (points: number) =>
      db
        .insertInto('operations')
        .values({
          type: 'redemption',
          status: 'completed',
          points,
          account_id: card.accountId,
          created_at: before,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    // Backdated debits are proven only by their consumptions: one exact, one that took less than its points.
    const exact = await debit(-2);
    const short = await debit(-3);
    const credit = await db
      .insertInto('operations')
      .values({ type: 'accrual', status: 'completed', points: 1, account_id: card.accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('lot_consumptions')
      .values([
        { operation_id: exact.id, lot_id: lot!.id, points: 2 },
        { operation_id: short.id, lot_id: lot!.id, points: 1 },
        { operation_id: credit.id, lot_id: lot!.id, points: 1 },
      ])
      .execute();
    const { lots } = await verifyLedger(db);
    expect(lots.debitsOff).toContain(short.id);
    expect(lots.debitsOff).toContain(credit.id);
    expect(lots.debitsOff).not.toContain(exact.id);
  });
});

describe('verifyLedger: holds against the lots', () => {
  it('reports an account whose open holds need more than its available lots (a hold on pending points)', async () => {
    // Each ledger total is right, but the 8 held points can come only from lots still pending: what a hold
    // may never take (PROGRAMME-API §1, available = balance − held − pending).
    const onPending = await createCard(db, { balance: 10 });
    await sql`update lots set available_at = now() + interval '1 day' where account_id = ${onPending.accountId}::uuid`.execute(
      db,
    );
    // The same, but the hold has lapsed: it no longer holds anything.
    const lapsed = await createCard(db, { balance: 10 });
    await sql`update lots set available_at = now() + interval '1 day' where account_id = ${lapsed.accountId}::uuid`.execute(
      db,
    );
    // Held points all covered by available lots.
    const covered = await createCard(db, { balance: 10 });
    for (const [card, expires] of [
      [onPending, sql`now() + interval '10 minutes'`],
      [lapsed, sql`now() - interval '1 minute'`],
      [covered, sql`now() + interval '10 minutes'`],
    ] as const) {
      await sql`insert into operations (type, status, points, account_id, expires_at)
        values ('hold', 'active', -8, ${card.accountId}::uuid, ${expires})`.execute(db);
      await sql`update accounts set held_balance = 8 where id = ${card.accountId}::uuid`.execute(db);
    }
    const report = await verifyLedger(db);
    for (const card of [onPending, lapsed, covered]) {
      expect(report.differences.map((d) => d.accountId)).not.toContain(card.accountId);
      expect(report.lots.accountsOff).not.toContain(card.accountId);
    }
    expect(report.lots.holdsUncovered).toContain(onPending.accountId);
    expect(report.lots.holdsUncovered).not.toContain(lapsed.accountId);
    expect(report.lots.holdsUncovered).not.toContain(covered.accountId);
  });
});
