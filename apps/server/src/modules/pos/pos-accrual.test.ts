import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import {
  accountOf,
  createCard,
  createPosKey,
  createRuleset,
  failedOperations,
  opId,
  type Till,
  till,
} from './pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

const receipt = (receiptId = 'R-1') => ({
  receiptId,
  items: [
    { sku: 'MILK', category: 'dairy', quantity: 2, price: 1.99 },
    { sku: 'BREAD', quantity: 1, price: 3.5, discount: 0.5 },
    { sku: 'TOBACCO', category: 'excluded', quantity: 1, price: 12 },
    { sku: 'CHEESE', category: 'dairy', quantity: 0.355, price: 18.9, discount: 0.2 },
  ],
});

let pos: Till;
let posKeyId: string;

describe('before any ruleset is in force', () => {
  it('refuses an accrual with 409 NO_ACTIVE_RULESET, writes no points and records the failure', async () => {
    const admin = await createPosKey(ctx, { name: 'Main street', address: '1 Main St' });
    pos = till(ctx, admin.apiKey);
    posKeyId = admin.id;
    // Drafts and scheduled rulesets are not in force.
    await createRuleset(db, { version: 1, percent: 50, activeFrom: null });
    await createRuleset(db, { version: 99, percent: 50, activeFrom: new Date(Date.now() + 3_600_000) });
    const card = await createCard(db, { balance: 10 });
    const id = opId();
    const res = await pos.accrue({ operationId: id, cardNumber: card.number, receipt: receipt() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      status: 409,
      code: 'NO_ACTIVE_RULESET',
      message: 'No ruleset is in force',
    });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 10, held: 0 });
    expect(await db.selectFrom('receipts').selectAll().execute()).toHaveLength(0);
    const [failed] = await failedOperations(db, 'NO_ACTIVE_RULESET');
    expect(failed).toMatchObject({
      operation_id: id,
      type: 'accrual',
      pos_id: posKeyId,
      card_number: card.number,
    });
    expect(Number(failed!.points)).toBe(0);
    const preview = await pos.preview({ cardNumber: card.number, receipt: receipt() });
    expect(preview.json().code).toBe('NO_ACTIVE_RULESET');
  });
});

describe('POST /pos/api/v1/accruals', () => {
  it('earns the percent of the ruleset in force on each line, 0 on excluded SKUs', async () => {
    await createRuleset(db, { version: 2, percent: 5, excluded: ['TOBACCO'] });
    await createRuleset(db, { version: 3, percent: 10, excluded: ['TOBACCO', 'OTHER'] });
    const card = await createCard(db, { balance: 1 });
    const id = opId();
    const res = await pos.accrue({ operationId: id, cardNumber: card.number, receipt: receipt('R-100') });
    expect(res.statusCode).toBe(201);
    // MILK 3.98 → 0.40; BREAD 3.00 → 0.30; TOBACCO 12 → 0 (excluded); CHEESE 0.355×18.90 = 6.7095 → 6.71 − 0.20 = 6.51 → 0.65
    expect(res.json()).toEqual({
      operationId: id,
      points: 1.35,
      balance: 2.35,
      receipt: {
        receiptId: 'R-100',
        totalAmount: 25.49,
        totalDiscount: 0.7,
        items: [
          {
            sku: 'MILK',
            category: 'dairy',
            quantity: 2,
            price: 1.99,
            discount: 0,
            lineTotal: 3.98,
            bonusPoints: 0.4,
            rule: 'base',
          },
          {
            sku: 'BREAD',
            category: null,
            quantity: 1,
            price: 3.5,
            discount: 0.5,
            lineTotal: 3,
            bonusPoints: 0.3,
            rule: 'base',
          },
          {
            sku: 'TOBACCO',
            category: 'excluded',
            quantity: 1,
            price: 12,
            discount: 0,
            lineTotal: 12,
            bonusPoints: 0,
            rule: 'excluded',
          },
          {
            sku: 'CHEESE',
            category: 'dairy',
            quantity: 0.355,
            price: 18.9,
            discount: 0.2,
            lineTotal: 6.51,
            bonusPoints: 0.65,
            rule: 'base',
          },
        ],
      },
    });
    const op = await db
      .selectFrom('operations')
      .selectAll()
      .where('operation_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(op).toMatchObject({ type: 'accrual', status: 'completed', ruleset_version: 3, pos_id: posKeyId });
    expect(op.meta).toMatchObject({ receipt: 'R-100' });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 2.35, held: 0 });

    const detail = await app.inject({
      url: `/api/v1/receipts/operation/${op.id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body).toMatchObject({
      receipt: {
        receiptId: 'R-100',
        posId: posKeyId,
        totalAmount: 25.49,
        totalDiscount: 0.7,
        cardNumber: card.number,
      },
      posName: 'Main street',
      posAddress: '1 Main St',
    });
    expect(body.items.map((i: { sku: string }) => i.sku)).toEqual(['MILK', 'BREAD', 'TOBACCO', 'CHEESE']);
    expect(body.items[3]).toMatchObject({
      quantity: 0.355,
      price: 18.9,
      discount: 0.2,
      lineTotal: 6.51,
      bonusPoints: 0.65,
      rule: 'base',
    });
    expect(typeof body.items[0].id).toBe('string');
    // The POS operationId finds it too.
    const byOpId = await app.inject({
      url: `/api/v1/receipts/operation/${id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(byOpId.json()).toEqual(body);
  });

  it('previews the same computation without writing anything', async () => {
    const card = await createCard(db, { balance: 5 });
    const res = await pos.preview({ cardNumber: card.number, receipt: receipt('R-P') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ operationId: null, points: 1.35, balance: 6.35 });
    const withId = await pos.preview({
      operationId: 'preview-1',
      cardNumber: card.number,
      receipt: receipt('R-P'),
    });
    expect(withId.json().operationId).toBe('preview-1');
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 5, held: 0 });
    const ops = await db
      .selectFrom('operations')
      .select('id')
      .where('account_id', '=', card.accountId)
      .execute();
    expect(ops).toHaveLength(1); // the starting balance only
  });

  it('answers 404 CARD_NOT_FOUND and 409 CARD_BLOCKED, recording the failures', async () => {
    const unknown = await pos.accrue({
      operationId: opId(),
      cardNumber: '0000000000000000',
      receipt: receipt(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'CARD_NOT_FOUND', message: 'Card not found' });
    for (const status of ['blocked', 'pending'] as const) {
      const card = await createCard(db, { status });
      const id = opId();
      const res = await pos.accrue({ operationId: id, cardNumber: card.number, receipt: receipt() });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('CARD_BLOCKED');
      const [failed] = await db.selectFrom('operations').selectAll().where('operation_id', '=', id).execute();
      expect(failed).toMatchObject({ status: 'failed', type: 'accrual', account_id: card.accountId });
      expect(failed!.meta).toEqual({ error: 'CARD_BLOCKED', receipt: 'R-1' });
      expect((await pos.preview({ cardNumber: card.number, receipt: receipt() })).json().code).toBe(
        'CARD_BLOCKED',
      );
    }
    expect(await failedOperations(db, 'CARD_NOT_FOUND')).toHaveLength(1);
  });

  it('rejects invalid receipts with 400 and records them without taking the operationId', async () => {
    const card = await createCard(db);
    const id = opId();
    const bad = [
      { operationId: id, cardNumber: card.number, receipt: { receiptId: 'R', items: [] } },
      {
        operationId: id,
        cardNumber: card.number,
        receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 1.001 }] },
      },
      {
        operationId: id,
        cardNumber: card.number,
        receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 1, discount: 2 }] },
      },
      {
        operationId: id,
        cardNumber: card.number,
        receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 0, price: 1 }] },
      },
      { operationId: '', cardNumber: card.number, receipt: receipt() },
      { operationId: 'x'.repeat(129), cardNumber: card.number, receipt: receipt() },
    ];
    for (const body of bad) {
      const res = await pos.accrue(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const recorded = await failedOperations(db, 'VALIDATION_ERROR');
    expect(recorded.length).toBe(bad.length);
    expect(recorded.every((r) => r.operation_id === null && r.pos_id === posKeyId)).toBe(true);
    // The id is still free.
    const ok = await pos.accrue({ operationId: id, cardNumber: card.number, receipt: receipt() });
    expect(ok.statusCode).toBe(201);
  });

  it('takes a discount of the whole gross as rounded to the cent: a weighed line made free earns 0', async () => {
    const card = await createCard(db);
    // 2.5 kg × 0.99 = 2.475, a gross of 2.48 to the cent: the till's full discount is 2.48, not 2.475.
    const free = { sku: 'APPLES', quantity: 2.5, price: 0.99, discount: 2.48 };
    const bread = { sku: 'BREAD', quantity: 1, price: 3.5 };
    const res = await pos.accrue({
      operationId: opId(),
      cardNumber: card.number,
      receipt: { receiptId: 'R-free', items: [free, bread] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().receipt.items[0]).toMatchObject({ lineTotal: 0, bonusPoints: 0 });
    expect(res.json().points).toBe(0.35);
    // A cent more than the rounded gross is still refused, naming the field.
    const over = await pos.accrue({
      operationId: opId(),
      cardNumber: card.number,
      receipt: { receiptId: 'R-over', items: [{ ...free, discount: 2.49 }] },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toContain('discount must not exceed quantity × price');
  });
});
