import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;
const { db } = ctx.database;

const lookup = (text: string, query = '') =>
  app.inject({
    url: `/api/v1/clients/${encodeURIComponent(text)}/lookup${query}`,
    headers: bearer(ctx.tokens.VIEWER),
  });
const post = (url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: bearer(ctx.tokens.ADMIN), ...(payload ? { payload } : {}) });

const alice = (await post('/api/v1/accounts', { clientId: 'Alice-01' })).json();
const bob = (await post('/api/v1/accounts', { clientId: 'BOB-02' })).json();
const aliceCards: Array<{ id: string; number: string }> = [];
for (let i = 0; i < 3; i++) aliceCards.push((await post(`/api/v1/cards/issue/${alice.id}`)).json());
await post(`/api/v1/cards/issue/${bob.id}`);
for (let i = 1; i <= 12; i++) {
  await post('/api/v1/admin/operations/manual-accrual', { accountId: alice.id, points: i });
}
await post('/api/v1/admin/operations/manual-accrual', { accountId: bob.id, points: 100 });

describe('client lookup', () => {
  it('by client ID (any case): the account, all its cards and its operations, 10 per section', async () => {
    const res = await lookup('alice-01');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.accounts).toEqual({
      total: 1,
      content: [expect.objectContaining({ id: alice.id, clientId: 'Alice-01', balance: 78 })],
    });
    expect(body.cards.total).toBe(3);
    expect(body.cards.content.map((c: { id: string }) => c.id)).toEqual(
      aliceCards.map((c) => c.id).reverse(),
    );
    expect(body.operations.total).toBe(12);
    expect(body.operations.content).toHaveLength(10);
    expect(body.operations.content[0]).toMatchObject({
      type: 'adjustment',
      points: '12.00',
      accountId: alice.id,
    });
  });

  it('by card number and by account id', async () => {
    const byCard = (await lookup(aliceCards[1]!.number)).json();
    expect(byCard.accounts.content.map((a: { id: string }) => a.id)).toEqual([alice.id]);
    expect(byCard.cards.total).toBe(3);
    const byId = (await lookup(bob.id.toUpperCase())).json();
    expect(byId.accounts.content.map((a: { id: string }) => a.id)).toEqual([bob.id]);
    expect(byId.operations).toMatchObject({
      total: 1,
      content: [expect.objectContaining({ points: '100.00' })],
    });
  });

  it('by the id of a card or an operation (what the audit log names): that account', async () => {
    const byCard = (await lookup(aliceCards[2]!.id)).json();
    expect(byCard.accounts.content.map((a: { id: string }) => a.id)).toEqual([alice.id]);
    const operation = await db
      .selectFrom('operations')
      .select('id')
      .where('account_id', '=', bob.id)
      .executeTakeFirstOrThrow();
    const byOperation = (await lookup(operation.id)).json();
    expect(byOperation.accounts.content.map((a: { id: string }) => a.id)).toEqual([bob.id]);
    expect(byOperation.cards.content.map((c: { clientId: string }) => c.clientId)).toEqual(['BOB-02']);
  });

  it('pages each section on its own', async () => {
    const body = (
      await lookup('ALICE-01', '?operationsPage=1&operationsSize=5&cardsPage=1&cardsSize=2')
    ).json();
    expect(body.operations.total).toBe(12);
    expect(body.operations.content.map((o: { points: string }) => o.points)).toEqual([
      '7.00',
      '6.00',
      '5.00',
      '4.00',
      '3.00',
    ]);
    expect(body.cards).toMatchObject({
      total: 3,
      content: [expect.objectContaining({ id: aliceCards[0]!.id })],
    });
    expect(body.accounts.total).toBe(1);
  });

  it('nothing matching is a 200 with empty sections', async () => {
    for (const text of ['nobody', '0000000000000000', '00000000-0000-4000-8000-000000000000', 'Alice']) {
      const res = await lookup(text);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        accounts: { content: [], total: 0 },
        cards: { content: [], total: 0 },
        operations: { content: [], total: 0 },
      });
    }
  });

  it('a blank text or a bad page is a 400; a session is needed', async () => {
    const blank = await lookup('   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('Please enter a client ID, card number, or account ID');
    expect((await lookup('BOB-02', '?cardsSize=0')).statusCode).toBe(400);
    expect((await lookup('BOB-02', '?accountsPage=-1')).statusCode).toBe(400);
    expect((await app.inject({ url: '/api/v1/clients/BOB-02/lookup' })).statusCode).toBe(401);
  });

  it('finds every account a text names at once', async () => {
    // A client ID that is also another client's card number: both accounts are shown.
    const bobCard = await db
      .selectFrom('cards')
      .select('number')
      .where('account_id', '=', bob.id)
      .executeTakeFirstOrThrow();
    const carol = (await post('/api/v1/accounts', { clientId: bobCard.number })).json();
    const body = (await lookup(bobCard.number)).json();
    expect(body.accounts.content.map((a: { id: string }) => a.id).sort()).toEqual([bob.id, carol.id].sort());
    expect(body.accounts.total).toBe(2);
  });
});
