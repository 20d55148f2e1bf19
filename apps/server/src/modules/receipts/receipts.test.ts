import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { createCard, createPosKey, createRuleset, opId, type Till, till } from '../pos/pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

let pos: Till;
// The file's ruleset, in force for every test whichever runs.
await createRuleset(db, { version: 1, percent: 10 });

describe('GET /api/v1/receipts/operation/{id}', () => {
  it('any role reads the receipt of a POS accrual, by operation id or POS operationId', async () => {
    const key = await createPosKey(ctx, { name: 'Corner shop', address: null });
    pos = till(ctx, key.apiKey);
    const card = await createCard(db);
    const operationId = opId();
    const items = [
      { sku: 'A', category: 'food', quantity: 1.5, price: 4, discount: 1 },
      { sku: 'B', quantity: 2, price: 2.5 },
    ];
    expect(
      (await pos.accrue({ operationId, cardNumber: card.number, receipt: { receiptId: 'R-7', items } }))
        .statusCode,
    ).toBe(201);
    const op = await db
      .selectFrom('operations')
      .select(['id', 'created_at'])
      .where('operation_id', '=', operationId)
      .executeTakeFirstOrThrow();
    for (const role of ['ADMIN', 'MANAGER', 'VIEWER'] as const) {
      for (const id of [op.id, operationId]) {
        const res = await app.inject({
          url: `/api/v1/receipts/operation/${id}`,
          headers: bearer(ctx.tokens[role]),
        });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          receipt: {
            receiptId: 'R-7',
            posId: key.id,
            totalAmount: 10,
            totalDiscount: 1,
            createdAt: expect.any(String),
            purchasedAt: expect.any(String),
            cardNumber: card.number,
          },
          posName: 'Corner shop',
          posAddress: null,
          rulesetVersion: 1,
          items: [
            {
              id: expect.any(String),
              sku: 'A',
              category: 'food',
              quantity: 1.5,
              price: 4,
              discount: 1,
              lineTotal: 5,
              bonusPoints: 0.5,
              rule: 'base',
            },
            {
              id: expect.any(String),
              sku: 'B',
              category: null,
              quantity: 2,
              price: 2.5,
              discount: 0,
              lineTotal: 5,
              bonusPoints: 0.5,
              rule: 'base',
            },
          ],
        });
      }
    }
  });

  it('the receipt of an accrual with the longest operationId the POS API takes, percent-encoded', async () => {
    const card = await createCard(db);
    const longTill = till(ctx, (await createPosKey(ctx, { name: 'Long ids', address: null })).apiKey);
    // 128 characters, each two bytes of UTF-8: 768 characters in the URL.
    const operationId = 'é'.repeat(128);
    const accrued = await longTill.accrue({
      operationId,
      cardNumber: card.number,
      receipt: { receiptId: 'R-LONG', items: [{ sku: 'A', quantity: 1, price: 10 }] },
    });
    expect(accrued.statusCode, accrued.body).toBe(201);
    const res = await app.inject({
      url: `/api/v1/receipts/operation/${encodeURIComponent(operationId)}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().receipt.receiptId).toBe('R-LONG');
  });

  it('names the ruleset version the accrual used, also once a newer one is in force (POS-API.md)', async () => {
    const shop = till(ctx, (await createPosKey(ctx, { name: 'Versions', address: null })).apiKey);
    const card = await createCard(db);
    const accrue = async () => {
      const operationId = opId();
      const res = await shop.accrue({
        operationId,
        cardNumber: card.number,
        receipt: { receiptId: opId('R'), items: [{ sku: 'A', quantity: 1, price: 10 }] },
      });
      expect(res.statusCode, res.body).toBe(201);
      return operationId;
    };
    const before = await accrue();
    const versions = await db
      .selectFrom('rulesets')
      .select((eb) => eb.fn.max('version').as('v'))
      .executeTakeFirst();
    const next = Number(versions?.v) + 1;
    // The same percent as the file's ruleset: only the version differs for the other tests.
    await createRuleset(db, { version: next, percent: 10 });
    const after = await accrue();
    const versionOf = async (id: string) =>
      (
        await app.inject({ url: `/api/v1/receipts/operation/${id}`, headers: bearer(ctx.tokens.VIEWER) })
      ).json().rulesetVersion;
    const used = await db
      .selectFrom('operations')
      .select(['operation_id', 'ruleset_version'])
      .where('operation_id', 'in', [before, after])
      .execute();
    expect(Object.fromEntries(used.map((o) => [o.operation_id, o.ruleset_version]))).toEqual({
      [before]: next - 1,
      [after]: next,
    });
    expect(await versionOf(before)).toBe(next - 1);
    expect(await versionOf(after)).toBe(next);
  });

  it('GET /api/v1/receipts/operation/{id} is 404 RECEIPT_NOT_FOUND for anything but a POS accrual', async () => {
    const card = await createCard(db, { balance: 20 });
    const hold = await pos.hold({ operationId: opId(), cardNumber: card.number, points: 1 });
    for (const id of [hold.json().holdId, '00000000-0000-4000-8000-000000000000', 'no-such-operation']) {
      const res = await app.inject({
        url: `/api/v1/receipts/operation/${id}`,
        headers: bearer(ctx.tokens.VIEWER),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('RECEIPT_NOT_FOUND');
    }
    const starting = await db
      .selectFrom('operations')
      .select('id')
      .where('account_id', '=', card.accountId)
      .where('type', '=', 'accrual')
      .executeTakeFirstOrThrow();
    const manual = await app.inject({
      url: `/api/v1/receipts/operation/${starting.id}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(manual.json().code).toBe('RECEIPT_NOT_FOUND');
    expect((await app.inject({ url: `/api/v1/receipts/operation/${starting.id}` })).statusCode).toBe(401);
  });
});
