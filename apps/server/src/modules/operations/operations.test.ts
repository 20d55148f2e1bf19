import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { rebuildDerivedTables } from '../../db/derived';

// The list tests seed raw operations for the reads, without balances behind them: no ledger check.
const ctx = await createTestContext({}, { verifyLedger: false });
const { app } = ctx;
const { db } = ctx.database;

const list = (query = '') =>
  app.inject({ url: `/api/v1/operations${query}`, headers: bearer(ctx.tokens.VIEWER) });
const ids = (res: { json(): { content: Array<{ id: string }> } }) => res.json().content.map((o) => o.id);

const [account] = await db.insertInto('accounts').values({ client_id: 'OPS-1' }).returning('id').execute();
const [other] = await db.insertInto('accounts').values({ client_id: 'OPS-2' }).returning('id').execute();
const [pos] = await db
  .insertInto('pos_keys')
  .values({ name: 'Till 1', address: 'Main St 1', key_hash: 'h1', key_cipher: 'c1', status: 'active' })
  .returning('id')
  .execute();
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 12, minute)).toISOString();
const seed = [
  {
    operation_id: 'POS-AAA-1',
    type: 'accrual',
    status: 'completed',
    points: '10.00',
    card_number: '1111222233334444',
    account_id: account!.id,
    pos_id: pos!.id,
    created_at: at(1),
    meta: JSON.stringify({ receipt: 'R-1', store: 'S1', secret: 'x' }),
  },
  {
    operation_id: 'POS-AAA-2',
    type: 'hold',
    status: 'active',
    points: '-5.00',
    card_number: '1111222233334444',
    account_id: account!.id,
    pos_id: pos!.id,
    created_at: at(2),
    meta: '{}',
  },
  {
    operation_id: 'POS-BBB-1',
    type: 'redemption',
    status: 'completed',
    points: '-2.50',
    card_number: '9999888877776666',
    account_id: other!.id,
    pos_id: pos!.id,
    created_at: at(3),
    meta: JSON.stringify({ reward: 5, transactionId: 'T-9' }),
  },
  {
    operation_id: 'POS-BBB-2',
    type: 'accrual',
    status: 'failed',
    points: '0.00',
    card_number: '9999000000000000',
    account_id: null,
    pos_id: pos!.id,
    created_at: at(4),
    meta: JSON.stringify({ error: 'CARD_NOT_FOUND' }),
  },
  {
    operation_id: null,
    type: 'adjustment',
    status: 'completed',
    points: '7.25',
    card_number: null,
    account_id: other!.id,
    pos_id: null,
    created_at: at(5),
    meta: JSON.stringify({ reason: 'Goodwill', extra: { a: 1 } }),
  },
] as const;
const inserted = await db
  .insertInto('operations')
  .values(seed.map((o) => ({ ...o })))
  .returning('id')
  .execute();
const opIds = inserted.map((r) => r.id);

describe('operations API', () => {
  it('lists newest first with POS name/address, signed 2-decimal points and only the Details meta keys', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ totalElements: 5, totalPages: 1, page: 0, size: 20 });
    expect(ids(res)).toEqual([...opIds].reverse());
    expect(body.content[4]).toEqual({
      id: opIds[0],
      operationId: 'POS-AAA-1',
      type: 'accrual',
      points: '10.00',
      status: 'completed',
      accountId: account!.id,
      cardNumber: '1111222233334444',
      posId: pos!.id,
      posName: 'Till 1',
      posAddress: 'Main St 1',
      createdAt: at(1),
      meta: { receipt: 'R-1', store: 'S1' },
    });
    expect(body.content[2]).toMatchObject({ points: '-2.50', meta: { reward: 5, transactionId: 'T-9' } });
    expect(body.content[0]).toMatchObject({
      operationId: null,
      posId: null,
      posName: null,
      meta: { reason: 'Goodwill' },
    });
    expect(ids(await list('?sort=createdAt,asc&size=2&page=1'))).toEqual([opIds[2], opIds[3]]);
  });

  it('filters by type, status, account and card number with exact totals', async () => {
    const accruals = (await list('?type=accrual')).json();
    expect(accruals.totalElements).toBe(2);
    expect(accruals.content.map((o: { id: string }) => o.id)).toEqual([opIds[3], opIds[0]]);
    expect((await list('?status=completed')).json().totalElements).toBe(3);
    expect(
      (await list('?type=accrual&status=failed')).json().content.map((o: { id: string }) => o.id),
    ).toEqual([opIds[3]]);
    expect((await list('?type=hold&status=failed')).json()).toMatchObject({ totalElements: 0, content: [] });
    expect(ids(await list(`?accountId=${other!.id}`))).toEqual([opIds[4], opIds[2]]);
    expect((await list(`?accountId=${other!.id}&type=adjustment`)).json().totalElements).toBe(1);
    expect(ids(await list('?cardNumber=1111222233334444'))).toEqual([opIds[1], opIds[0]]);
  });

  it('searches card-number prefixes, operation-id prefixes and exact operation UUIDs', async () => {
    expect(ids(await list('?search=1111'))).toEqual([opIds[1], opIds[0]]);
    expect(ids(await list('?search=9999'))).toEqual([opIds[3], opIds[2]]);
    expect(ids(await list('?search=POS-BBB'))).toEqual([opIds[3], opIds[2]]);
    expect((await list('?search=POS-&type=hold')).json().totalElements).toBe(1);
    expect(ids(await list(`?search=${opIds[4]}`))).toEqual([opIds[4]]);
    expect((await list('?search=AAA')).json().totalElements).toBe(0);
    expect((await list('?search=%25')).json().totalElements).toBe(0);
  });

  it('searches of one to three characters are exact (search counters), with and without a type filter', async () => {
    // A card number and an operation id that both start with "9" must be counted once.
    const [both] = await db
      .insertInto('operations')
      .values({
        operation_id: '9-both',
        type: 'accrual',
        status: 'completed',
        points: '1.00',
        card_number: '9123',
      })
      .returning('id')
      .execute();
    const direct = async (ch: string, type?: string) => {
      let q = db
        .selectFrom('operations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('card_number', 'like', `${ch}%`), eb('operation_id', 'like', `${ch}%`)]));
      if (type) q = q.where('type', '=', type as 'accrual');
      return (await q.executeTakeFirstOrThrow()).n;
    };
    for (const ch of ['1', '9', 'P', 'x', '11', '91', '99', 'PO', '912', 'POS', '9-b', '9123', 'POS-B']) {
      expect((await list(`?search=${ch}`)).json().totalElements).toBe(await direct(ch));
      expect((await list(`?search=${ch}&type=accrual`)).json().totalElements).toBe(
        await direct(ch, 'accrual'),
      );
    }
    expect((await list('?search=9')).json().totalElements).toBe(3);
    expect(ids(await list('?search=9&size=1'))).toEqual([both!.id]);
    expect((await list('?search=x')).json()).toMatchObject({ totalElements: 0, content: [] });
    await db.deleteFrom('operations').where('id', '=', both!.id).execute();
    expect((await list('?search=9')).json().totalElements).toBe(2);
  });

  it('keeps the counters exact through inserts, status changes and deletes, and rebuilds them', async () => {
    await db.updateTable('operations').set({ status: 'applied' }).where('id', '=', opIds[1]!).execute();
    expect((await list('?type=hold&status=active')).json().totalElements).toBe(0);
    expect((await list('?type=hold&status=applied')).json().totalElements).toBe(1);
    expect((await list('?type=hold')).json().totalElements).toBe(1);
    const [extra] = await db
      .insertInto('operations')
      .values({ type: 'adjustment', status: 'completed', points: '1.00', account_id: account!.id })
      .returning('id')
      .execute();
    expect((await list()).json().totalElements).toBe(6);
    await db.deleteFrom('operations').where('id', '=', extra!.id).execute();
    expect((await list()).json().totalElements).toBe(5);
    await sql`delete from operation_counts`.execute(db);
    await sql`delete from operation_search_counts`.execute(db);
    expect((await list()).json().totalElements).toBe(0);
    expect((await list('?search=1')).json().totalElements).toBe(0);
    await rebuildDerivedTables(db);
    expect((await list()).json().totalElements).toBe(5);
    expect((await list('?search=1')).json().totalElements).toBe(2);
    expect((await list('?status=completed')).json().totalElements).toBe(3);
  });

  it('gets one operation; unknown is a 404 and a malformed id a 400', async () => {
    const res = await app.inject({
      url: `/api/v1/operations/${opIds[2]}`,
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: opIds[2], type: 'redemption', posName: 'Till 1' });
    const unknown = await app.inject({
      url: '/api/v1/operations/00000000-0000-4000-8000-000000000000',
      headers: bearer(ctx.tokens.VIEWER),
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('OPERATION_NOT_FOUND');
    expect(
      (await app.inject({ url: '/api/v1/operations/x', headers: bearer(ctx.tokens.VIEWER) })).statusCode,
    ).toBe(400);
  });

  it('rejects unknown filter values and sort fields; needs a session', async () => {
    for (const query of ['?type=refund', '?status=done', '?sort=points,asc', '?accountId=1', '?size=0']) {
      const res = await list(query);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await app.inject({ url: '/api/v1/operations' })).statusCode).toBe(401);
  });
});
