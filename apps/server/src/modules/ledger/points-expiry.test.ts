import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { accountOf, createCard, opId, posTestFile } from '../pos/pos.fixtures';
import { expirePoints } from './points-expiry';
import { ledgerIsSound, verifyLedger } from './verify-ledger';

/**
 * Two sweepers and captures racing on the same accounts. On PostgreSQL they really run side by side (the
 * test pool has 20 connections: each sweeper's transactions and each capture take their own); PGlite has
 * one connection and runs them one after another, where the same assertions must hold.
 */
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });
const races = ctx.database.kind === 'postgres';
const ACCOUNTS = races ? 40 : 8;

describe('points expiry under races', () => {
  it('two sweepers and captures on the same accounts: no lot below zero, no lot expired twice, every point once', async () => {
    const settings = (points: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/settings',
        headers: bearer(ctx.tokens.ADMIN),
        payload: { points },
      });
    await settings({ expiry_days: 1 });
    const cards = await Promise.all(Array.from({ length: ACCOUNTS }, () => createCard(db, { balance: 20 })));
    const holds: string[] = [];
    for (const card of cards) {
      // Three lots of 3 points that expire in a day, beside the 20 that never do.
      for (let i = 0; i < 3; i++) {
        const res = await pos.accrue({
          operationId: opId('acc'),
          cardNumber: card.number,
          receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 30 }] },
        });
        expect(res.statusCode, res.body).toBe(201);
      }
      const hold = await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 25 });
      expect(hold.statusCode, hold.body).toBe(201);
      holds.push(hold.json().holdId);
    }
    await settings({ expiry_days: null });
    const ids = cards.map((c) => c.accountId);
    // Two days pass for the expiring lots.
    await sql`update lots set earned_at = earned_at - interval '2 days', available_at = available_at - interval '2 days',
        expires_at = expires_at - interval '2 days'
      where expires_at is not null and account_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`.execute(
      db,
    );

    // Each account: balance 29, held 25 → 4 of the 9 due points may expire while the hold is open; a
    // capture of 20 takes 9 due points first. Who wins decides the split, never the sum.
    const [first, second, ...captures] = await Promise.all([
      expirePoints(db, 7),
      expirePoints(db, 5),
      ...holds.map((holdId) => pos.capture(holdId, { operationId: opId('cap'), points: 20 })),
    ]);
    for (const c of captures) expect(c.statusCode, c.body).toBe(200);
    const afterHolds = await expirePoints(db);

    const report = await verifyLedger(db);
    expect(ledgerIsSound(report), JSON.stringify(report)).toBe(true);
    const twice = await sql<{ lot_id: string }>`
      select lc.lot_id from lot_consumptions lc join operations o on o.id = lc.operation_id
      where o.type = 'expiry' group by lc.lot_id having count(*) > 1`.execute(db);
    // Once an account's 4 free points expired nothing more of it may expire while its hold is open, and the
    // capture leaves no due point: a second expiry of a lot could only be a double count.
    const expiries = await sql<{ account_id: string; points: string }>`
      select account_id, sum(-points)::text as points from operations
      where type = 'expiry' and account_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)
      group by account_id`.execute(db);
    const expired = new Map(expiries.rows.map((r) => [r.account_id, Number(r.points)]));
    const total = [...expired.values()].reduce((s, n) => s + n, 0);
    expect(first!.points + second!.points + afterHolds.points).toBeCloseTo(total, 2);
    for (const card of cards) {
      const account = await accountOf(db, card.accountId);
      // 29 − 20 captured = 9 left before expiry; the 9 due points either expired or were captured.
      const gone = expired.get(card.accountId) ?? 0;
      expect(account).toEqual({ balance: 9 - gone, held: 0 });
      const due = await sql<{ remaining: string }>`
        select coalesce(sum(remaining), 0)::text as remaining from lots
        where account_id = ${card.accountId}::uuid and expires_at is not null`.execute(db);
      expect(Number(due.rows[0]!.remaining)).toBe(0);
    }
    expect(twice.rows).toEqual([]);
  });
});
