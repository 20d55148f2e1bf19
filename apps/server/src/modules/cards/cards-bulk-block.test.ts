import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;

interface CardBody {
  id: string;
  number: string;
  accountId: string;
  status: string;
  blockedReason: string | null;
}

const post = (url: string, payload?: unknown, token = ctx.tokens.MANAGER) =>
  app.inject({
    method: 'POST',
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const bulkBlock = (payload: unknown, token = ctx.tokens.MANAGER) =>
  post('/api/v1/cards/block', payload, token);
const newCard = async (clientId: string): Promise<CardBody> => {
  const account = (await post('/api/v1/accounts', { clientId })).json();
  return (await post(`/api/v1/cards/issue/${account.id}`)).json();
};
const cardById = async (card: CardBody): Promise<CardBody> =>
  (
    await app.inject({
      url: `/api/v1/cards?accountId=${card.accountId}&size=200`,
      headers: bearer(ctx.tokens.VIEWER),
    })
  )
    .json()
    .content.find((c: CardBody) => c.id === card.id);
const auditOf = async (cardId: string) =>
  (
    await app.inject({
      url: `/api/v1/audit?targetType=card&targetId=${cardId}`,
      headers: bearer(ctx.tokens.ADMIN),
    })
  ).json().content as { username: string; message: string }[];

describe('POST /api/v1/cards/block (block selected cards with one reason)', () => {
  it('blocks every listed card with the one reason, each with its own audit entry', async () => {
    const a = await newCard('BULK-A');
    const b = await newCard('BULK-B');
    const res = await bulkBlock({ ids: [a.id, b.id], reason: '  Stolen batch  ' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ blocked: 2, failed: 0 });
    expect(body.results.map((r: { id: string; outcome: string }) => [r.id, r.outcome])).toEqual([
      [a.id, 'blocked'],
      [b.id, 'blocked'],
    ]);
    for (const card of [a, b]) {
      expect(await cardById(card)).toMatchObject({ status: 'blocked', blockedReason: 'Stolen batch' });
      expect(await auditOf(card.id)).toContainEqual(
        expect.objectContaining({
          username: 'manager',
          message: `Blocked card ${card.number}: Stolen batch`,
        }),
      );
    }
  });

  it('reports a card it cannot block with the single block code and blocks the rest', async () => {
    const active = await newCard('BULK-MIXED-1');
    const already = await newCard('BULK-MIXED-2');
    await post(`/api/v1/cards/${already.id}/block`, { reason: 'Lost' });
    const unknown = randomUUID();
    const res = await bulkBlock({ ids: [already.id, unknown, active.id] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ blocked: 1, failed: 2 });
    expect(body.results).toEqual([
      expect.objectContaining({
        id: already.id,
        outcome: 'failed',
        error: { status: 409, code: 'CARD_NOT_ACTIVE', message: 'Card is already blocked' },
      }),
      {
        id: unknown,
        outcome: 'failed',
        card: null,
        error: expect.objectContaining({ code: 'CARD_NOT_FOUND' }),
      },
      expect.objectContaining({
        id: active.id,
        outcome: 'blocked',
        error: null,
        card: expect.objectContaining({ status: 'blocked', blockedReason: 'Blocked by admin' }),
      }),
    ]);
    // The already blocked card keeps its own reason and gets no second entry.
    expect(await cardById(already)).toMatchObject({ blockedReason: 'Lost' });
    expect((await auditOf(already.id)).filter((e) => e.message.startsWith('Blocked'))).toHaveLength(1);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const card = await newCard('BULK-BAD');
    for (const payload of [
      {},
      { ids: [] },
      { ids: ['not-a-uuid'] },
      { ids: [card.id, card.id] },
      { ids: Array.from({ length: 101 }, () => randomUUID()) },
      { ids: [card.id], reason: 'x'.repeat(501) },
    ]) {
      const res = await bulkBlock(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(res.json()).toMatchObject({
        status: 400,
        code: expect.any(String),
        message: expect.any(String),
      });
    }
    expect(await cardById(card)).toMatchObject({ status: 'active' });
  });

  it('follows the single block role rules: a viewer gets 403, no token 401', async () => {
    const card = await newCard('BULK-ROLE');
    expect((await bulkBlock({ ids: [card.id] }, ctx.tokens.VIEWER)).statusCode).toBe(403);
    const anonymous = await app.inject({
      method: 'POST',
      url: '/api/v1/cards/block',
      payload: { ids: [card.id] },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(await cardById(card)).toMatchObject({ status: 'active' });
    expect((await bulkBlock({ ids: [card.id] }, ctx.tokens.ADMIN)).json()).toMatchObject({ blocked: 1 });
  });

  it('two racing bulk calls over the same cards block each card once', async () => {
    const cards = await Promise.all(['RACE-1', 'RACE-2', 'RACE-3'].map((c) => newCard(`BULK-${c}`)));
    const ids = cards.map((c) => c.id);
    const [first, second] = await Promise.all([
      bulkBlock({ ids, reason: 'first' }),
      bulkBlock({ ids: [...ids].reverse(), reason: 'second' }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(first.json().blocked + second.json().blocked).toBe(3);
    for (const card of cards) {
      expect((await auditOf(card.id)).filter((e) => e.message.startsWith('Blocked'))).toHaveLength(1);
    }
  });
});
