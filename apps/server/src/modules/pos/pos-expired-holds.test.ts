import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { sweepExpiredHolds } from '../ledger/hold-sweeper';
import { accountOf, createCard, expireHold, opId, posTestFile } from './pos.fixtures';

// Issue 15.5: a hold is expired the moment its time passes, whether or not the sweeper has run. The
// sweeper is off in this file; time moves by setting a hold's expires_at in the past (expireHold).
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });

async function holdOn(number: string, points: number) {
  const res = await pos.hold({ operationId: opId('hold'), cardNumber: number, points });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { holdId: string; availableBalance: number };
}

const statusOf = async (holdId: string) =>
  (await db.selectFrom('operations').select('status').where('id', '=', holdId).executeTakeFirstOrThrow())
    .status;

async function shownHeld(card: { number: string; accountId: string; clientId: string }) {
  const posCard = (await pos.card(card.number)).json();
  const admin = { headers: bearer(ctx.tokens.VIEWER) };
  const one = (
    await ctx.app.inject({ method: 'GET', url: `/api/v1/accounts/${card.accountId}`, ...admin })
  ).json();
  const list = (
    await ctx.app.inject({ method: 'GET', url: `/api/v1/accounts?search=${card.clientId}`, ...admin })
  ).json();
  const lookup = (
    await ctx.app.inject({ method: 'GET', url: `/api/v1/clients/${card.number}/lookup`, ...admin })
  ).json();
  return {
    pos: { held: posCard.heldBalance, available: posCard.availableBalance },
    account: one.heldBalance,
    list: list.content.map((a: { heldBalance: number }) => a.heldBalance),
    lookup: lookup.accounts.content.map((a: { heldBalance: number }) => a.heldBalance),
  };
}

const withClient = async (balance: number) => {
  const card = await createCard(db, { balance });
  return { ...card, clientId: `client-${card.number}` };
};

describe('expired holds, before the sweeper has run', () => {
  it('are not shown as held anywhere: POS card, account, accounts list, client lookup', async () => {
    const card = await withClient(50);
    const lapsed = await holdOn(card.number, 40);
    await holdOn(card.number, 5);
    await expireHold(db, lapsed.holdId);
    expect(await shownHeld(card)).toEqual({
      pos: { held: 5, available: 45 },
      account: 5,
      list: [5],
      lookup: [5],
    });
  });

  it("are not in the dashboard's held points", async () => {
    const circulation = async () =>
      (
        await ctx.app.inject({
          url: '/api/v1/analytics/bonuses-circulation',
          headers: bearer(ctx.tokens.VIEWER),
        })
      ).json() as { totalPoints: number; heldPoints: number; activePoints: number };
    const card = await withClient(30);
    const hold = await holdOn(card.number, 12.5);
    const before = await circulation();
    await expireHold(db, hold.holdId);
    const after = await circulation();
    expect(after.totalPoints).toBe(before.totalPoints);
    expect(after.heldPoints).toBeCloseTo(before.heldPoints - 12.5, 2);
    expect(after.activePoints).toBeCloseTo(before.activePoints + 12.5, 2);
  });

  it('do not refuse a new hold with INSUFFICIENT_FUNDS; the new hold voids them', async () => {
    const card = await withClient(50);
    const lapsed = await holdOn(card.number, 40);
    await expireHold(db, lapsed.holdId);
    const fresh = await holdOn(card.number, 30);
    expect(fresh.availableBalance).toBe(20);
    expect(await statusOf(lapsed.holdId)).toBe('voided');
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 30 });
    // What is really left is still refused.
    const over = await pos.hold({ operationId: opId(), cardNumber: card.number, points: 20.01 });
    expect(over.json().code).toBe('INSUFFICIENT_FUNDS');
  });

  it('a lapsed hold reported by a successful hold does not count in its availableBalance', async () => {
    const card = await withClient(50);
    const lapsed = await holdOn(card.number, 10);
    await expireHold(db, lapsed.holdId);
    expect((await holdOn(card.number, 5)).availableBalance).toBe(45);
  });

  it('capture and release answer HOLD_EXPIRED before and after the sweep', async () => {
    const card = await withClient(50);
    const [a, b, c, d] = [
      await holdOn(card.number, 1),
      await holdOn(card.number, 2),
      await holdOn(card.number, 3),
      await holdOn(card.number, 4),
    ];
    for (const h of [a!, b!, c!, d!]) await expireHold(db, h.holdId);
    const before = [
      await pos.capture(a!.holdId, { operationId: opId() }),
      await pos.release(b!.holdId, { operationId: opId() }),
    ];
    expect(await sweepExpiredHolds(db)).toBeGreaterThanOrEqual(2);
    const after = [
      await pos.capture(c!.holdId, { operationId: opId() }),
      await pos.release(d!.holdId, { operationId: opId() }),
      // and again, on the holds voided at the first answer
      await pos.release(a!.holdId, { operationId: opId() }),
      await pos.capture(b!.holdId, { operationId: opId() }),
    ];
    for (const res of [...before, ...after]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'HOLD_EXPIRED', message: 'Hold expired' });
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 0 });
  });

  it("an erased member's expired hold still answers HOLD_EXPIRED (the erasure clears free text, not the ledger's reasons)", async () => {
    const card = await withClient(50);
    const swept = await holdOn(card.number, 3);
    await expireHold(db, swept.holdId);
    expect(await sweepExpiredHolds(db)).toBeGreaterThanOrEqual(1);
    const { clientId } = await db
      .selectFrom('accounts')
      .select('client_id as clientId')
      .where('id', '=', card.accountId)
      .executeTakeFirstOrThrow();
    const erased = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${card.accountId}/erase`,
      headers: bearer(ctx.tokens.ADMIN),
      payload: { confirm: clientId },
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const res = await pos.capture(swept.holdId, { operationId: opId() });
    expect(res.json()).toMatchObject({ status: 409, code: 'HOLD_EXPIRED' });
  });

  it('a hold captured or released in time stays closed once its time has passed', async () => {
    const card = await withClient(50);
    const captured = await holdOn(card.number, 5);
    const released = await holdOn(card.number, 5);
    expect((await pos.capture(captured.holdId, { operationId: opId() })).statusCode).toBe(200);
    expect((await pos.release(released.holdId, { operationId: opId() })).statusCode).toBe(200);
    await expireHold(db, captured.holdId);
    await expireHold(db, released.holdId);
    for (const holdId of [captured.holdId, released.holdId]) {
      const res = await pos.release(holdId, { operationId: opId() });
      expect(res.json().code).toBe('ALREADY_CAPTURED_OR_CLOSED');
    }
  });

  it('a return takes back the points a lapsed hold still seemed to hold', async () => {
    const card = await withClient(0);
    const operationId = opId('acc');
    const accrued = await pos.accrue({
      operationId,
      cardNumber: card.number,
      receipt: { receiptId: 'R-LAPSED', items: [{ sku: 'A', quantity: 1, price: 100 }] },
    });
    expect(accrued.json().points).toBe(10);
    const lapsed = await holdOn(card.number, 10);
    await expireHold(db, lapsed.holdId);
    const res = await pos.returns({ operationId: opId('ret'), originalOperationId: operationId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ points: -10, balance: 0 });
    expect(await statusOf(lapsed.holdId)).toBe('voided');
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 0, held: 0 });
  });
});
