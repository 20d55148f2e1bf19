import type { Operation } from '@loyalty/contracts';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helper';
import { createCard, opId, posTestFile } from '../pos/pos.fixtures';

// What the Operations screen needs to tell staff which till request failed and what a return could not take
// back: the failed write found by the id the till sent, and a return's shortfall, both in the answer.
const { ctx, db, pos, other } = await posTestFile({ ruleset: { percent: 10 } });

const get = (url: string) => ctx.app.inject({ url, headers: bearer(ctx.tokens.VIEWER) });
const list = async (query: string) => {
  const res = await get(`/api/v1/operations?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { content: Operation[]; totalElements: number };
};
let unique = 0;
/** An id no other row's card number or operation id starts with ('Q…'), so its short prefixes find only it. */
const requestedId = () => `Q${(unique++).toString(36)}-${opId('req')}`;

/** Every operation a search should find, counted straight from the table: the exactness reference. */
async function direct(prefix: string, filter: { type?: string; status?: string } = {}) {
  const p = `${prefix}%`;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from operations
    where (card_number like ${p} or operation_id like ${p}
      or (operation_id is null and meta ->> 'operationId' like ${p}))
      and (${filter.type ?? null}::text is null or type = ${filter.type ?? null})
      and (${filter.status ?? null}::text is null or status = ${filter.status ?? null})`.execute(db);
  return rows[0]!.n;
}

describe('operations: the failed POS writes by the id the till sent', () => {
  it('a write refused before it took its operationId is found by that id, which its meta shows', async () => {
    const card = await createCard(db, { balance: 50 });
    const id = requestedId();
    const refused = await pos.hold({ operationId: id, cardNumber: card.number, points: -1 });
    expect(refused.json().code).toBe('VALIDATION_ERROR');
    for (const search of [id, id.slice(0, 6), id.slice(0, 3), id.slice(0, 2)]) {
      const found = await list(`search=${encodeURIComponent(search)}`);
      expect(found.totalElements).toBe(1);
      expect(found.content[0]).toMatchObject({
        operationId: null,
        type: 'hold',
        status: 'failed',
        cardNumber: card.number,
        meta: { error: 'VALIDATION_ERROR', operationId: id },
      });
    }
    const [row] = (await list(`search=${id}`)).content;
    expect((await get(`/api/v1/operations/${row!.id}`)).json().meta).toEqual({
      error: 'VALIDATION_ERROR',
      operationId: id,
    });
    // The export of the same search (its own query: bare column names beside a lateral join) has it too.
    const csv = (await get(`/api/v1/operations?search=${id}&format=csv`)).body.trim().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(row!.id);
    // Still free: the till's retry takes it, and the search then shows both, the retry with the id as its own.
    expect((await pos.hold({ operationId: id, cardNumber: card.number, points: 1 })).statusCode).toBe(201);
    const both = await list(`search=${id}`);
    expect(both.content.map((o) => [o.operationId, o.status, o.meta.operationId])).toEqual([
      [id, 'active', undefined],
      [null, 'failed', id],
    ]);
  });

  it('an id another POS holds: the refused write is found beside the operation that has it', async () => {
    const card = await createCard(db, { balance: 50 });
    const body = { operationId: requestedId(), cardNumber: card.number, points: 1 };
    expect((await pos.hold(body)).statusCode).toBe(201);
    expect((await other.hold(body)).json().code).toBe('OPERATION_ID_USED_BY_OTHER_POS');
    const found = await list(`search=${body.operationId}&status=failed`);
    expect(found.content).toMatchObject([
      { operationId: null, meta: { error: 'OPERATION_ID_USED_BY_OTHER_POS', operationId: body.operationId } },
    ]);
    expect((await list(`search=${body.operationId}`)).totalElements).toBe(2);
  });

  it('totals stay exact, short searches (counters) included, a row found by card and id counted once', async () => {
    // Card number and requested id share their first characters: one row, counted once.
    const card = await createCard(db, { balance: 5 });
    const id = `${card.number.slice(0, 3)}-${opId('req')}`;
    expect((await pos.hold({ operationId: id, cardNumber: card.number, points: -1 })).statusCode).toBe(400);
    const searches = [
      'Q',
      'Q0',
      'Q1',
      card.number.slice(0, 1),
      card.number.slice(0, 2),
      card.number.slice(0, 3),
    ];
    for (const search of [...searches, id.slice(0, 5), id]) {
      expect((await list(`search=${search}`)).totalElements, search).toBe(await direct(search));
      expect((await list(`search=${search}&status=failed`)).totalElements, search).toBe(
        await direct(search, { status: 'failed' }),
      );
      expect((await list(`search=${search}&type=accrual`)).totalElements, search).toBe(
        await direct(search, { type: 'accrual' }),
      );
    }
    expect((await list('search=Q')).totalElements).toBeGreaterThanOrEqual(3);
  });
});

describe('operations: a return that could not take back every point', () => {
  it('shows the shortfall and the accrual it returns, in the list, by id and on the client page', async () => {
    const card = await createCard(db);
    const accrual = opId('acc');
    const receipt = { receiptId: opId('R'), items: [{ sku: 'A', quantity: 1, price: 40 }] };
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).json().points).toBe(
      4,
    );
    // 2.50 of the 4.00 held: the return takes 1.50 and cannot take the rest.
    expect((await pos.hold({ operationId: opId(), cardNumber: card.number, points: 2.5 })).statusCode).toBe(
      201,
    );
    const id = opId('ret');
    expect((await pos.returns({ operationId: id, originalOperationId: accrual })).json().points).toBe(-1.5);
    const meta = {
      reason: `Return of receipt ${receipt.receiptId}`,
      receipt: receipt.receiptId,
      returnOf: accrual,
      shortfall: 2.5,
    };
    const [listed] = (await list(`search=${id}`)).content;
    expect(listed).toMatchObject({ operationId: id, type: 'adjustment', points: '-1.50', meta });
    expect(listed!.meta).toEqual(meta);
    expect((await get(`/api/v1/operations/${listed!.id}`)).json().meta).toEqual(meta);
    const ofClient = await list(`accountId=${card.accountId}`);
    expect(ofClient.content.find((o) => o.id === listed!.id)?.meta).toEqual(meta);
  });

  it('a return that took everything back has no shortfall', async () => {
    const card = await createCard(db);
    const accrual = opId('acc');
    const receipt = { receiptId: opId('R'), items: [{ sku: 'A', quantity: 1, price: 10 }] };
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).statusCode).toBe(
      201,
    );
    const id = opId('ret');
    expect((await pos.returns({ operationId: id, originalOperationId: accrual })).json().points).toBe(-1);
    const [listed] = (await list(`search=${id}`)).content;
    expect(listed!.meta).toEqual({
      reason: `Return of receipt ${receipt.receiptId}`,
      receipt: receipt.receiptId,
      returnOf: accrual,
    });
  });
});
