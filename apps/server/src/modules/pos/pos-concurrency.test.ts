import { describe, expect, it } from 'vitest';
import { sweepExpiredHolds } from '../ledger/hold-sweeper';
import { accountOf, createCard, expireHold, opId, posTestFile } from './pos.fixtures';

/**
 * Races. On PostgreSQL these really run side by side (the test pool has 20 connections), at full size.
 * PGlite has one connection and runs them one at a time: the same assertions must hold, and a tenth of
 * the requests prove that as well as all of them would (the ledger is verified after the file either way).
 */
// Every test gets its own tills' keys and the 10 % ruleset from here, not from whichever test runs first.
const { ctx, db, pos, other } = await posTestFile({ ruleset: { percent: 10 } });
const races = ctx.database.kind === 'postgres';
/** How many concurrent requests a race sends: `full` where they really race, a tenth (≥ 4) on PGlite. */
const size = (full: number) => (races ? full : Math.max(4, Math.round(full / 10)));

const operationsWith = (operationId: string) =>
  db.selectFrom('operations').selectAll().where('operation_id', '=', operationId).execute();

describe('concurrent duplicates', () => {
  it('200 concurrent accruals with one operationId: exactly one effect, 200 identical answers', async () => {
    const n = size(200);
    const card = await createCard(db, { balance: 0 });
    const body = {
      operationId: opId('dup'),
      cardNumber: card.number,
      receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 100 }] },
    };
    const answers = await Promise.all(Array.from({ length: n }, () => pos.accrue(body)));
    expect(new Set(answers.map((a) => a.statusCode))).toEqual(new Set([201]));
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    expect(await operationsWith(body.operationId)).toHaveLength(1);
    expect(await db.selectFrom('receipts').selectAll().execute()).toHaveLength(1);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 10, held: 0 });
  });

  it('200 concurrent holds with one operationId, half from another POS: one hold, the rest replays or 409', async () => {
    const card = await createCard(db, { balance: 100 });
    const n = size(200);
    const body = { operationId: opId('dup'), cardNumber: card.number, points: 30 };
    const answers = await Promise.all(Array.from({ length: n }, (_, i) => (i % 2 ? other : pos).hold(body)));
    const winners = answers.filter((a) => a.statusCode === 201);
    const losers = answers.filter((a) => a.statusCode === 409);
    expect(winners.length + losers.length).toBe(n);
    // Whichever POS got there first owns the id; all its requests see the same hold.
    expect(winners.length).toBe(n / 2);
    expect(new Set(winners.map((a) => a.body)).size).toBe(1);
    expect(new Set(losers.map((a) => a.json().code))).toEqual(new Set(['OPERATION_ID_USED_BY_OTHER_POS']));
    expect(await operationsWith(body.operationId)).toHaveLength(1);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 100, held: 30 });
  });
  it('one operationId sent to different endpoints at once: one effect, the rest 409, never a 5xx', async () => {
    const card = await createCard(db, { balance: 100 });
    const accrual = opId('acc');
    await pos.accrue({
      operationId: accrual,
      cardNumber: card.number,
      receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 10 }] },
    });
    const hold = (await pos.hold({ operationId: opId(), cardNumber: card.number, points: 5 })).json();
    const id = opId('shared');
    const n = size(40);
    const requests = Array.from({ length: n }, (_, i) => {
      switch (i % 4) {
        case 0:
          return pos.hold({ operationId: id, cardNumber: card.number, points: 1 });
        case 1:
          return pos.capture(hold.holdId, { operationId: id, points: 1 });
        case 2:
          return pos.accrue({
            operationId: id,
            cardNumber: card.number,
            receipt: { receiptId: 'S', items: [{ sku: 'B', quantity: 1, price: 10 }] },
          });
        default:
          return pos.returns({ operationId: id, originalOperationId: accrual });
      }
    });
    const answers = await Promise.all(requests);
    expect(answers.every((a) => a.statusCode < 500)).toBe(true);
    const firsts = answers.filter((a) => a.statusCode < 300 && a.headers['idempotent-replayed'] !== 'true');
    expect(firsts).toHaveLength(1);
    const others = answers.filter(
      (a) => a.statusCode === 409 && a.json().code === 'OPERATION_ID_ALREADY_USED',
    );
    const replays = answers.filter((a) => a.headers['idempotent-replayed'] === 'true');
    expect(others.length + replays.length).toBe(n - 1);
    expect(await operationsWith(id)).toHaveLength(1);
  });
});

describe('no over-commitment', () => {
  it('100 concurrent holds whose sum exceeds the balance: held never exceeds it', async () => {
    // The holds ask about 4 points each on average: the balance covers well under their sum.
    const n = size(100);
    const balance = 2.5 * n;
    const card = await createCard(db, { balance });
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 1 + (i % 7) }),
      ),
    );
    const granted = answers.filter((a) => a.statusCode === 201).map((a) => a.json().points as number);
    const refused = answers.filter((a) => a.statusCode === 409);
    expect(granted.length + refused.length).toBe(n);
    expect(new Set(refused.map((a) => a.json().code))).toEqual(new Set(['INSUFFICIENT_FUNDS']));
    const held = granted.reduce((s, p) => s + p, 0);
    expect(refused.length).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(balance);
    // Every refusal was right when it was made: less than its points was left at the end.
    expect(balance - held).toBeLessThan(7);
    expect(await accountOf(db, card.accountId)).toEqual({ balance, held });
  });

  it('50 concurrent captures of one hold (different operationIds): exactly one redemption', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = (await pos.hold({ operationId: opId(), cardNumber: card.number, points: 20 })).json();
    const answers = await Promise.all(
      Array.from({ length: size(50) }, (_, i) =>
        i % 2
          ? pos.capture(hold.holdId, { operationId: opId('c') })
          : pos.release(hold.holdId, { operationId: opId('r') }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.statusCode !== 200).map((a) => a.json().code))).toEqual(
      new Set(['ALREADY_CAPTURED_OR_CLOSED']),
    );
    const redemptions = await db
      .selectFrom('operations')
      .select('id')
      .where('related_id', '=', hold.holdId)
      .where('type', '=', 'redemption')
      .where('status', '=', 'completed')
      .execute();
    const captured = answers.some((a) => a.statusCode === 200 && a.json().status === 'captured');
    expect(redemptions).toHaveLength(captured ? 1 : 0);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: captured ? 30 : 50, held: 0 });
  });

  it('concurrent partial returns of one receipt never take back more than it earned', async () => {
    const card = await createCard(db, { balance: 0 });
    const accrual = opId('acc');
    await pos.accrue({
      operationId: accrual,
      cardNumber: card.number,
      receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 10, price: 10 }] },
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, () =>
        pos.returns({
          operationId: opId('ret'),
          originalOperationId: accrual,
          items: [{ sku: 'A', quantity: 1 }],
        }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(10);
    expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(20);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 0, held: 0 });
  });

  it('captures racing the sweeper on expired holds: each hold ends exactly one way', async () => {
    const card = await createCard(db, { balance: 100 });
    const holds = [];
    for (let i = 0; i < 20; i++)
      holds.push((await pos.hold({ operationId: opId(), cardNumber: card.number, points: 2 })).json());
    for (const h of holds.slice(0, 10)) await expireHold(db, h.holdId);
    const [captures] = await Promise.all([
      Promise.all(holds.map((h) => pos.capture(h.holdId, { operationId: opId() }))),
      sweepExpiredHolds(db, 3),
      sweepExpiredHolds(db, 3),
    ]);
    const captured = captures.filter((c) => c.statusCode === 200).length;
    expect(captured).toBe(10);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 100 - 2 * captured, held: 0 });
  });
});
