import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { createCard, createPosKey, opId, type Till, till } from './pos.fixtures';

const ctx = await createTestContext();
const { app } = ctx;
const db = ctx.database.db;

const receipt = () => ({ receiptId: 'R-1', items: [{ sku: 'MILK', quantity: 2, price: 1.99 }] });

let pos: Till;

describe('POS authentication and card balance', () => {
  it('a till with an active key is let in', async () => {
    pos = till(ctx, (await createPosKey(ctx)).apiKey);
    expect((await pos.card('0000000000000000')).json().code).toBe('CARD_NOT_FOUND');
  });

  it('authenticates tills: no key, unknown key and inactive key are 401 and nothing is recorded', async () => {
    const card = await createCard(db);
    const before = (await db.selectFrom('operations').select('id').execute()).length;
    const none = await app.inject({ method: 'GET', url: `/pos/api/v1/cards/${card.number}` });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    const wrong = await till(ctx, 'not-a-key-of-any-till-0123456789abcdef').accrue({
      operationId: opId(),
      cardNumber: card.number,
      receipt: receipt(),
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('UNAUTHORIZED');
    const other = await createPosKey(ctx, { status: 'inactive' });
    const inactive = await till(ctx, other.apiKey).card(card.number);
    expect(inactive.statusCode).toBe(401);
    // Deactivating an active key takes effect at once.
    const live = await createPosKey(ctx);
    expect((await till(ctx, live.apiKey).card(card.number)).statusCode).toBe(200);
    await app.inject({
      method: 'PATCH',
      url: `/api/v1/pos-keys/${live.id}`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { status: 'inactive' },
    });
    expect((await till(ctx, live.apiKey).card(card.number)).statusCode).toBe(401);
    expect((await db.selectFrom('operations').select('id').execute()).length).toBe(before);
  });

  it('GET /pos/api/v1/cards/{number} reports balance, held and available, for any card status', async () => {
    const card = await createCard(db, { balance: 40 });
    const hold = await pos.hold({ operationId: opId(), cardNumber: card.number, points: 15.5 });
    expect(hold.statusCode).toBe(201);
    const res = await pos.card(card.number);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      cardNumber: card.number,
      status: 'active',
      balance: 40,
      heldBalance: 15.5,
      pendingBalance: 0,
      availableBalance: 24.5,
      nextExpiry: null,
    });
    const blocked = await createCard(db, { status: 'blocked' });
    expect((await pos.card(blocked.number)).json().status).toBe('blocked');
    const missing = await pos.card('1234');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('CARD_NOT_FOUND');
  });

  it('a key deactivated by its id in capitals stops at once too', async () => {
    const card = await createCard(db);
    const live = await createPosKey(ctx);
    expect((await till(ctx, live.apiKey).card(card.number)).statusCode).toBe(200);
    const patch = await app.inject({
      method: 'PATCH',
      url: `/api/v1/pos-keys/${live.id.toUpperCase()}`,
      headers: bearer(ctx.tokens.MANAGER),
      payload: { status: 'inactive' },
    });
    expect(patch.statusCode).toBe(200);
    expect(patch.json()).toMatchObject({ id: live.id, status: 'inactive' });
    expect((await till(ctx, live.apiKey).card(card.number)).statusCode).toBe(401);
  });

  it('stamps the key lastUsedAt on a successful call', async () => {
    const key = await createPosKey(ctx);
    const list = async () =>
      (await app.inject({ url: '/api/v1/pos-keys?size=200', headers: bearer(ctx.tokens.VIEWER) }))
        .json()
        .content.find((k: { id: string }) => k.id === key.id);
    expect((await list()).lastUsedAt).toBeNull();
    const card = await createCard(db);
    await till(ctx, key.apiKey).card(card.number);
    const used = (await list()).lastUsedAt;
    expect(used).not.toBeNull();
    expect(Date.now() - Date.parse(used)).toBeLessThan(60_000);
  });
});
