import { MAX_BALANCE, MAX_RECEIPT_AMOUNT } from '@loyalty/contracts';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { accountOf, createCard, failedOperations, opId, posTestFile } from './pos.fixtures';

// Issue 15.2: numbers that pass validation must fit the columns that store them (numeric(14, 2) points
// and balances, numeric(16, 2) receipt totals); a credit past the balance's limit is a 409 of its own.
// 100 %: the most points a receipt can earn.
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 100 } });

const receiptOf = (items: Array<{ sku: string; quantity: number; price: number }>) => ({
  receiptId: `R-${opId()}`,
  items,
});

describe('receipt bounds', () => {
  it('refuses a receipt whose amount cannot be stored with 400, for accrual and preview alike', async () => {
    const card = await createCard(db);
    // The reproduction: 1,000,000 × 10,000,000 answered 500 at accrual and 200 at preview.
    const receipt = receiptOf([{ sku: 'BIG', quantity: 1_000_000, price: 10_000_000 }]);
    const accrual = await pos.accrue({ operationId: opId(), cardNumber: card.number, receipt });
    const preview = await pos.preview({ cardNumber: card.number, receipt });
    for (const res of [accrual, preview]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(res.json().message).toContain(`at most ${MAX_RECEIPT_AMOUNT}`);
    }
    // Many lines that each fit, together too much.
    const many = receiptOf(
      Array.from({ length: 11 }, (_, i) => ({ sku: `L${i}`, quantity: 1_000_000, price: 1000 })),
    );
    const res = await pos.accrue({ operationId: opId(), cardNumber: card.number, receipt: many });
    expect(res.statusCode, res.body).toBe(400);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 0, held: 0 });
  });

  it('stores the largest receipt validation accepts, at 100 %, and preview says the same', async () => {
    const card = await createCard(db);
    const receipt = receiptOf(
      Array.from({ length: 10 }, (_, i) => ({ sku: `L${i}`, quantity: 1_000_000, price: 1000 })),
    );
    const preview = await pos.preview({ cardNumber: card.number, receipt });
    expect(preview.statusCode, preview.body).toBe(200);
    const operationId = opId();
    const res = await pos.accrue({ operationId, cardNumber: card.number, receipt });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      points: MAX_RECEIPT_AMOUNT,
      balance: MAX_RECEIPT_AMOUNT,
      receipt: { totalAmount: MAX_RECEIPT_AMOUNT },
    });
    expect({ ...preview.json(), operationId }).toEqual(res.json());
  });
});

describe('balance limit', () => {
  const nearLimit = MAX_BALANCE - 5; // 999,999,999,994.99

  it('an accrual that would pass it is 409 BALANCE_LIMIT_EXCEEDED, recorded as failed; preview agrees', async () => {
    const card = await createCard(db, { balance: nearLimit });
    const receipt = receiptOf([{ sku: 'X', quantity: 1, price: 5.01 }]);
    const operationId = opId();
    const res = await pos.accrue({ operationId, cardNumber: card.number, receipt });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ status: 409, code: 'BALANCE_LIMIT_EXCEEDED' });
    const preview = await pos.preview({ cardNumber: card.number, receipt });
    expect(preview.statusCode).toBe(409);
    expect(preview.json().code).toBe('BALANCE_LIMIT_EXCEEDED');
    const [failed] = (await failedOperations(db, 'BALANCE_LIMIT_EXCEEDED')).filter(
      (o) => o.operation_id === operationId,
    );
    expect(failed).toMatchObject({ type: 'accrual', account_id: card.accountId, card_number: card.number });
    expect(Number(failed!.points)).toBe(0);
    // A retry replays the refusal.
    const again = await pos.accrue({ operationId, cardNumber: card.number, receipt });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(res.body);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: nearLimit, held: 0 });
    expect(await db.selectFrom('receipts').where('receipt_id', '=', receipt.receiptId).execute()).toEqual([]);
  });

  it('an accrual that reaches it exactly goes through', async () => {
    const card = await createCard(db, { balance: nearLimit });
    const receipt = receiptOf([{ sku: 'X', quantity: 1, price: 5 }]);
    const preview = await pos.preview({ cardNumber: card.number, receipt });
    expect(preview.json().balance).toBe(MAX_BALANCE);
    const res = await pos.accrue({ operationId: opId(), cardNumber: card.number, receipt });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().balance).toBe(MAX_BALANCE);
  });

  it('a manual accrual that would pass it is 409 BALANCE_LIMIT_EXCEEDED and writes nothing', async () => {
    const card = await createCard(db, { balance: nearLimit });
    const manual = (points: number) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/v1/admin/operations/manual-accrual',
        headers: bearer(ctx.tokens.MANAGER),
        payload: { accountId: card.accountId, points },
      });
    const res = await manual(5.01);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ code: 'BALANCE_LIMIT_EXCEEDED' });
    const adjustments = await db
      .selectFrom('operations')
      .select('id')
      .where('account_id', '=', card.accountId)
      .where('type', '=', 'adjustment')
      .execute();
    expect(adjustments).toEqual([]);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: nearLimit, held: 0 });
    const exact = await manual(5);
    expect(exact.statusCode, exact.body).toBe(201);
    expect(exact.json().balance).toBe(MAX_BALANCE);
  });
});
