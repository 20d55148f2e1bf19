import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { createCard } from '../pos/pos.fixtures';
import { ledgerIsSound, verifyLedger } from './verify-ledger';

// This file breaks the ledger on purpose to see it reported: no ledger check after it.
const ctx = await createTestContext({}, { verifyLedger: false });
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

describe('verifyLedger: lots against their credits, expiries against the lots', () => {
  /** A completed credit of `points` on the account, and (unless `lot` is false) its lot: `lot.points` (else `points`) on `lot.of` (else the account). */
  async function credit(
    accountId: string,
    points: number,
    lot: { points?: number; of?: string } | false = {},
  ) {
    const op = await db
      .insertInto('operations')
      .values({ type: 'adjustment', status: 'completed', points, account_id: accountId })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (lot === false) return { operationId: op.id, lotId: null };
    const row = await db
      .insertInto('lots')
      .values({
        account_id: lot.of ?? accountId,
        credit_id: op.id,
        earned_at: new Date(),
        available_at: new Date(),
        points: lot.points ?? points,
        remaining: lot.points ?? points,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { operationId: op.id, lotId: row.id };
  }

  it('reports a lot that is not its credit, a credit without its lot and a lot of no credit since the epoch', async () => {
    const card = await createCard(db, { balance: 10 });
    const other = await createCard(db, { balance: 0 });
    const matching = await credit(card.accountId, 3);
    const otherPoints = await credit(card.accountId, 5, { points: 4 });
    const otherAccount = await credit(card.accountId, 2, { of: other.accountId });
    const lotless = await credit(card.accountId, 7, false);
    const orphan = await sql<{ id: string }>`
      insert into lots (account_id, earned_at, available_at, points, remaining)
      values (${card.accountId}::uuid, now(), now(), 1, 1) returning id`.execute(db);
    // An opening lot (migration 016): no credit, earned before lots existed.
    const opening = await sql<{ id: string }>`
      insert into lots (account_id, earned_at, available_at, points, remaining)
      values (${card.accountId}::uuid, '2020-01-01', '2020-01-01', 1, 1) returning id`.execute(db);
    // Credits from before lots existed: a lot of what one still held (bench:dataset's loaded lots) is its
    // credit's; a lot of more than its credit gave is not.
    const before = await credit(card.accountId, 6, { points: 2 });
    const overgrown = await credit(card.accountId, 6, { points: 9 });
    await sql`update operations set created_at = '2020-01-01'
      where id in (${before.operationId}::uuid, ${overgrown.operationId}::uuid)`.execute(db);
    const { lots } = await verifyLedger(db);
    expect(lots.creditsOff).not.toContain(before.lotId);
    expect(lots.creditsOff).toContain(overgrown.lotId);
    expect(lots.creditsOff).toEqual(
      expect.arrayContaining([
        otherPoints.lotId,
        otherAccount.lotId,
        lotless.operationId,
        orphan.rows[0]!.id,
      ]),
    );
    expect(lots.creditsOff).not.toContain(matching.lotId);
    expect(lots.creditsOff).not.toContain(matching.operationId);
    expect(lots.creditsOff).not.toContain(opening.rows[0]!.id);
  });

  it('reports an expiry that took from a lot not yet expired', async () => {
    const card = await createCard(db, { balance: 0 });
    const expired = await credit(card.accountId, 4);
    const current = await credit(card.accountId, 4);
    await sql`update lots set earned_at = now() - interval '2 days', available_at = now() - interval '2 days',
      expires_at = now() - interval '1 day' where id = ${expired.lotId}::uuid`.execute(db);
    await sql`update lots set expires_at = now() + interval '1 day' where id = ${current.lotId}::uuid`.execute(
      db,
    );
    const expiries = [];
    for (const lotId of [expired.lotId, current.lotId]) {
      const op = await db
        .insertInto('operations')
        .values({ type: 'expiry', status: 'completed', points: -4, account_id: card.accountId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('lot_consumptions')
        .values({ operation_id: op.id, lot_id: lotId!, points: 4 })
        .execute();
      expiries.push(op.id);
    }
    const { lots } = await verifyLedger(db);
    expect(lots.expiriesOff).not.toContain(expiries[0]);
    expect(lots.expiriesOff).toContain(expiries[1]);
  });
});
