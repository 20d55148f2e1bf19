import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { createCard, opId, posTestFile } from '../pos/pos.fixtures';

// PROGRAMME-API §1: "every debit consumes lots and records which lots it took and how much, so every point
// can be traced" — the read of what took a lot's points.
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });
const as = (role: 'ADMIN' | 'MANAGER' | 'VIEWER') => bearer(ctx.tokens[role]);
const consumptionsOf = (accountId: string, lotId: string, query = '', role: 'ADMIN' | 'VIEWER' = 'VIEWER') =>
  ctx.app.inject({
    url: `/api/v1/accounts/${accountId}/lots/${lotId}/consumptions${query}`,
    headers: as(role),
  });

async function lotsOf(accountId: string): Promise<Array<{ id: string; points: number }>> {
  return (
    await ctx.app.inject({
      url: `/api/v1/accounts/${accountId}/lots?sort=earnedAt,asc`,
      headers: as('VIEWER'),
    })
  ).json().content;
}

const bookedAt = async (operationId: string) =>
  (
    await db
      .selectFrom('operations')
      .select('created_at')
      .where('id', '=', operationId)
      .executeTakeFirstOrThrow()
  ).created_at;

describe('GET /api/v1/accounts/{id}/lots/{lotId}/consumptions', () => {
  it("lists each debit that took from the lot: the operation, its type, the till's id, points and time", async () => {
    const card = await createCard(db);
    for (const price of [100, 50]) {
      const res = await pos.accrue({
        operationId: opId('acc'),
        cardNumber: card.number,
        receipt: { receiptId: opId('R'), items: [{ sku: 'A', quantity: 1, price }] },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    // The lots of 10 and 5 points, earned two hours and one hour ago: the capture takes the older first.
    const [first, second] = await lotsOf(card.accountId);
    for (const [lot, hours] of [
      [first!, 2],
      [second!, 1],
    ] as const)
      await sql`update lots set earned_at = earned_at - make_interval(hours => ${hours}),
        available_at = available_at - make_interval(hours => ${hours}) where id = ${lot.id}::uuid`.execute(
        db,
      );
    const hold = (await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 12 })).json();
    const captureId = opId('c');
    const capture = await pos.capture(hold.holdId, { operationId: captureId });
    expect(capture.statusCode, capture.body).toBe(200);
    const redemption = await db
      .selectFrom('operations')
      .select('id')
      .where('operation_id', '=', captureId)
      .executeTakeFirstOrThrow();
    // What is left of the second lot lapses and is expired.
    await sql`update lots set expires_at = now() - interval '1 minute' where id = ${second!.id}::uuid`.execute(
      db,
    );
    const run = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/points/expire',
      headers: as('ADMIN'),
    });
    expect(run.json()).toMatchObject({ points: 3 });
    const expiry = await db
      .selectFrom('operations')
      .select('id')
      .where('account_id', '=', card.accountId)
      .where('type', '=', 'expiry')
      .executeTakeFirstOrThrow();

    const took = (operationId: string, type: string, posOperationId: string | null, points: number) =>
      bookedAt(operationId).then((at) => ({
        operationId,
        type,
        posOperationId,
        points,
        at: at.toISOString(),
      }));
    const firstRes = await consumptionsOf(card.accountId, first!.id);
    expect(firstRes.statusCode, firstRes.body).toBe(200);
    expect(firstRes.json()).toEqual({
      content: [await took(redemption.id, 'redemption', captureId, 10)],
      totalElements: 1,
      totalPages: 1,
      page: 0,
      size: 20,
    });
    // Oldest first, paged in the database.
    const all = (await consumptionsOf(card.accountId, second!.id)).json();
    expect(all.content).toEqual([
      await took(redemption.id, 'redemption', captureId, 2),
      await took(expiry.id, 'expiry', null, 3),
    ]);
    const page = (await consumptionsOf(card.accountId, second!.id, '?page=1&size=1', 'ADMIN')).json();
    expect(page).toEqual({ content: [all.content[1]], totalElements: 2, totalPages: 2, page: 1, size: 1 });
    // A page past the end still says how many there are.
    const past = (await consumptionsOf(card.accountId, second!.id, '?page=5&size=1')).json();
    expect(past).toMatchObject({ content: [], totalElements: 2 });
  });

  it('an untouched lot has none; another account, or an unknown lot or account, is 404; no token 401', async () => {
    const card = await createCard(db, { balance: 7 });
    const [lot] = await lotsOf(card.accountId);
    expect((await consumptionsOf(card.accountId, lot!.id)).json()).toMatchObject({
      content: [],
      totalElements: 0,
    });
    const other = await createCard(db, { balance: 1 });
    const notHers = await consumptionsOf(other.accountId, lot!.id);
    expect(notHers.statusCode).toBe(404);
    expect(notHers.json()).toMatchObject({ status: 404, message: 'Lot not found', code: 'NOT_FOUND' });
    const unknownAccount = await consumptionsOf('00000000-0000-4000-8000-000000000000', lot!.id);
    expect(unknownAccount.json().code).toBe('ACCOUNT_NOT_FOUND');
    const badId = await consumptionsOf(card.accountId, 'not-a-lot');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().code).toBe('VALIDATION_ERROR');
    const anonymous = await ctx.app.inject({
      url: `/api/v1/accounts/${card.accountId}/lots/${lot!.id}/consumptions`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
