import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';

const ctx = await createTestContext();
const { app } = ctx;

const post = (url: string, payload?: object) =>
  app.inject({ method: 'POST', url, headers: bearer(ctx.tokens.MANAGER), ...(payload ? { payload } : {}) });
const newCard = async (clientId: string) => {
  const account = (await post('/api/v1/accounts', { clientId })).json();
  return (await post(`/api/v1/cards/issue/${account.id}`)).json() as {
    id: string;
    number: string;
    accountId: string;
  };
};
const cardsOf = async (accountId: string) =>
  (
    await app.inject({
      url: `/api/v1/cards?accountId=${accountId}&size=200`,
      headers: bearer(ctx.tokens.VIEWER),
    })
  ).json().content as { id: string; status: string; replacedBy: string | null }[];

describe('a card is reissued at most once (issue 16)', () => {
  it('a reissued card cannot be reissued again: 409 CARD_ALREADY_REISSUED, no new card', async () => {
    const card = await newCard('ONCE-1');
    await post(`/api/v1/cards/${card.id}/block`, { reason: 'Lost' });
    const first = await post(`/api/v1/cards/${card.id}/reissue`);
    expect(first.statusCode).toBe(201);
    const second = await post(`/api/v1/cards/${card.id}/reissue`);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      status: 409,
      code: 'CARD_ALREADY_REISSUED',
      message: `Card ${card.number} was already reissued`,
    });
    const cards = await cardsOf(card.accountId);
    expect(cards.filter((c) => c.status === 'active').map((c) => c.id)).toEqual([first.json().id]);
  });

  it('an active card reissued (so blocked as replaced) cannot be reissued again either', async () => {
    const card = await newCard('ONCE-2');
    expect((await post(`/api/v1/cards/${card.id}/reissue`)).statusCode).toBe(201);
    expect((await post(`/api/v1/cards/${card.id}/reissue`)).json().code).toBe('CARD_ALREADY_REISSUED');
  });

  it('two racing reissues of one card: exactly one wins, one successor exists', async () => {
    for (let round = 0; round < 5; round++) {
      const card = await newCard(`RACE-${round}`);
      await post(`/api/v1/cards/${card.id}/block`);
      const results = await Promise.all([1, 2, 3].map(() => post(`/api/v1/cards/${card.id}/reissue`)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409]);
      expect(results.filter((r) => r.statusCode === 409).map((r) => r.json().code)).toEqual([
        'CARD_ALREADY_REISSUED',
        'CARD_ALREADY_REISSUED',
      ]);
      const winner = results.find((r) => r.statusCode === 201)!.json();
      const cards = await cardsOf(card.accountId);
      expect(cards).toHaveLength(2);
      expect(cards.find((c) => c.id === card.id)?.replacedBy).toBe(winner.id);
    }
  });
});
