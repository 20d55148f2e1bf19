import { describe, expect, it } from 'vitest';
import { accountOf, createCard, opId, posTestFile } from './pos.fixtures';

const { db, pos, other } = await posTestFile({ ruleset: { percent: 10, excluded: ['C'] } });

/** 10% on: A 3 × 10.00 = 30 → 3.00; B 1 × 3.33 → 0.33; C (excluded) 2 × 50 → 0. Total 3.33. */
const receipt = {
  receiptId: 'R-RET',
  items: [
    { sku: 'A', quantity: 3, price: 10 },
    { sku: 'B', quantity: 1, price: 3.33 },
    { sku: 'C', quantity: 2, price: 50 },
  ],
};

async function accrued(balance = 0) {
  const card = await createCard(db, { balance });
  const operationId = opId('acc');
  const res = await pos.accrue({ operationId, cardNumber: card.number, receipt });
  expect(res.json().points).toBe(3.33);
  return { ...card, operationId };
}

const adjustments = (relatedTo: string) =>
  db
    .selectFrom('operations')
    .selectAll()
    .where('type', '=', 'adjustment')
    .where('related_id', '=', relatedTo)
    .execute();

describe('POST /pos/api/v1/returns', () => {
  it('returns a whole receipt: every point it earned comes back as an adjustment', async () => {
    const card = await accrued(10);
    const id = opId('ret');
    const res = await pos.returns({ operationId: id, originalOperationId: card.operationId });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ operationId: id, points: -3.33, balance: 10 });
    const original = await db
      .selectFrom('operations')
      .select('id')
      .where('operation_id', '=', card.operationId)
      .executeTakeFirstOrThrow();
    const [adj] = await adjustments(original.id);
    expect(adj).toMatchObject({
      operation_id: id,
      status: 'completed',
      points: '-3.33',
      account_id: card.accountId,
    });
    expect(adj!.meta).toMatchObject({ receipt: 'R-RET', earnedPoints: 3.33 });
    const again = await pos.returns({ operationId: opId(), originalOperationId: card.operationId });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'RETURN_NOT_ALLOWED',
      message: 'Nothing left to return for this operation',
    });
  });

  it('a card blocked since its accrual (lost, reissued) still has its return taken back', async () => {
    // POS-API's 409 CARD_BLOCKED stops a blocked card earning and spending; refusing its returns would leave
    // the member the points of goods brought back, on the account that now has a new card.
    const card = await accrued(10);
    await db.updateTable('cards').set({ status: 'blocked' }).where('number', '=', card.number).execute();
    const refused = await pos.accrue({ operationId: opId('acc'), cardNumber: card.number, receipt });
    expect(refused.json()).toMatchObject({ status: 409, code: 'CARD_BLOCKED' });
    const id = opId('ret');
    const res = await pos.returns({ operationId: id, originalOperationId: card.operationId });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ operationId: id, points: -3.33, balance: 10 });
  });

  it('partial returns over several requests never take back more than a line earned', async () => {
    const card = await accrued(0);
    const back = async (items: Array<{ sku: string; quantity: number }>) =>
      pos.returns({ operationId: opId('ret'), originalOperationId: card.operationId, items });
    // A earned 3.00 on 3 units: 1 unit → 1.00 each time.
    expect((await back([{ sku: 'A', quantity: 1 }])).json().points).toBe(-1);
    // B earned 0.33 on 1 unit: a third of a unit → 0.11, then the rest → 0.22 (exactly 0.33 in all).
    expect((await back([{ sku: 'B', quantity: 0.333 }])).json().points).toBe(-0.11);
    expect(
      (
        await back([
          { sku: 'B', quantity: 0.667 },
          { sku: 'A', quantity: 1 },
        ])
      ).json().points,
    ).toBe(-1.22);
    // An excluded line can come back; it takes nothing.
    expect((await back([{ sku: 'C', quantity: 2 }])).json().points).toBe(0);
    const over = await back([{ sku: 'A', quantity: 2 }]);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({
      code: 'RETURN_NOT_ALLOWED',
      message: "Only 1 of SKU 'A' can still be returned",
    });
    const unknownSku = await back([{ sku: 'Z', quantity: 1 }]);
    expect(unknownSku.json()).toMatchObject({
      code: 'RETURN_NOT_ALLOWED',
      message: "SKU 'Z' is not on the receipt",
    });
    const rest = await pos.returns({ operationId: opId(), originalOperationId: card.operationId });
    expect(rest.json()).toMatchObject({ points: -1, balance: 0 });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 0, held: 0 });
    const lines = await db
      .selectFrom('receipt_items')
      .selectAll()
      .where('sku', 'in', ['A', 'B'])
      .orderBy('line_no')
      .execute();
    for (const line of lines.slice(-2)) {
      expect(line.returned_points).toBe(line.bonus_points);
      expect(line.returned_quantity).toBe(line.quantity);
    }
  });

  it('never takes the balance below what is held: it takes what is available and records the shortfall', async () => {
    const card = await accrued(0);
    const hold = await pos.hold({ operationId: opId(), cardNumber: card.number, points: 2.5 });
    expect(hold.statusCode).toBe(201);
    const id = opId('ret');
    const res = await pos.returns({ operationId: id, originalOperationId: card.operationId });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ operationId: id, points: -0.83, balance: 2.5 });
    const adj = await db
      .selectFrom('operations')
      .selectAll()
      .where('operation_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(adj.meta).toMatchObject({ earnedPoints: 3.33, shortfall: 2.5 });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 2.5, held: 2.5 });
    // With nothing available at all the return still goes through, taking 0.
    const spent = await accrued(0);
    await pos.hold({ operationId: opId(), cardNumber: spent.number, points: 3.33 });
    const zero = await pos.returns({ operationId: opId(), originalOperationId: spent.operationId });
    expect(zero.json()).toMatchObject({ points: 0, balance: 3.33 });
  });

  it("only this POS's completed accruals can be returned (404 OPERATION_NOT_FOUND otherwise)", async () => {
    const card = await accrued(0);
    const hold = await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 1 });
    for (const [by, original] of [
      [other, card.operationId],
      [pos, 'no-such-operation'],
      [pos, JSON.parse(hold.body).holdId as string],
    ] as const) {
      const res = await by.returns({ operationId: opId(), originalOperationId: original });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('OPERATION_NOT_FOUND');
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 3.33, held: 1 });
  });
});
