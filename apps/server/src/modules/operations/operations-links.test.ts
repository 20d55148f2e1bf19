import type { Operation } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { createCard, opId, posTestFile } from '../pos/pos.fixtures';

// "Every point traceable" (PROGRAMME-API §1): an operation's Details say where its points came from or went,
// a redemption the hold it captured, an imported credit the import and line it came from.
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });

const get = (url: string) => ctx.app.inject({ url, headers: bearer(ctx.tokens.VIEWER) });
const operationsOf = async (accountId: string) => {
  const res = await get(`/api/v1/operations?accountId=${accountId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { content: Operation[] }).content;
};

async function capture(points?: number) {
  const card = await createCard(db, { balance: 50 });
  const hold = await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 20 });
  expect(hold.statusCode, hold.body).toBe(201);
  const holdId: string = hold.json().holdId;
  const captured = await pos.capture(holdId, { operationId: opId('cap'), points });
  expect(captured.statusCode, captured.body).toBe(200);
  const redemption = (await operationsOf(card.accountId)).find((o) => o.type === 'redemption')!;
  return { card, holdId, redemption };
}

describe('a redemption names the hold it captured', () => {
  it('in the list, by id, in the export and in its points.redeemed event', async () => {
    const { holdId, redemption } = await capture(12);
    expect(redemption.meta).toMatchObject({ holdId });
    expect((await get(`/api/v1/operations/${redemption.id}`)).json().meta).toMatchObject({ holdId });
    const csv = (await get(`/api/v1/operations?search=${redemption.operationId}&format=csv`)).body;
    expect(csv).toContain(holdId);
    // The outbox row as written (the feed serves it once older transactions on the server ended).
    const event = await db
      .selectFrom('events')
      .select('data')
      .where('type', '=', 'points.redeemed')
      .where(sql<string>`data ->> 'id'`, '=', redemption.id)
      .executeTakeFirstOrThrow();
    expect((event.data as Operation).meta).toMatchObject({ holdId });
    // The hold is found by the id it names (the search takes an operation's exact UUID).
    const found = (await get(`/api/v1/operations?search=${holdId}`)).json().content as Operation[];
    expect(found.map((o) => [o.id, o.type])).toEqual([[holdId, 'hold']]);
  });

  it('a redemption written before its meta named the hold shows it from its link to the hold', async () => {
    const { holdId, redemption } = await capture();
    await sql`update operations set meta = meta - 'holdId' where id = ${redemption.id}::uuid`.execute(db);
    expect((await get(`/api/v1/operations/${redemption.id}`)).json().meta).toMatchObject({ holdId });
    // Only the redemption: the hold itself and the account's credit name none.
    const others = (await operationsOf(redemption.accountId!)).filter((o) => o.type !== 'redemption');
    expect(others.map((o) => [o.type, o.meta.holdId])).toEqual([
      ['hold', undefined],
      ['accrual', undefined],
    ]);
  });
});

describe('an imported credit names its import and line', () => {
  it('the opening balance of an imported member: source, importId and line', async () => {
    const clientId = `imported-${opId()}`;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/imports/accounts?dryRun=false',
      headers: { ...bearer(ctx.tokens.MANAGER), 'content-type': 'text/csv' },
      payload: `clientId,points,reason\r\nother-${clientId},5,\r\n${clientId},12,Opening\r\n`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { importId } = res.json();
    expect(importId).toBeTypeOf('string');
    const account = await db
      .selectFrom('accounts')
      .select('id')
      .where('client_id', '=', clientId)
      .executeTakeFirstOrThrow();
    const [opening] = await operationsOf(account.id);
    const meta = { source: 'import-opening', importId, line: 3, reason: 'Opening' };
    expect(opening).toMatchObject({ type: 'adjustment', cardNumber: null, points: '12.00', meta });
    expect((await get(`/api/v1/operations/${opening!.id}`)).json().meta).toMatchObject(meta);
  });

  it('a manual accrual has none of them', async () => {
    const card = await createCard(db);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { accountId: card.accountId, points: 3, reason: 'Goodwill' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().operation.meta).toEqual({ reason: 'Goodwill' });
  });
});
