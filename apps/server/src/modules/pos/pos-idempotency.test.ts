import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifyLedger } from '../ledger/verify-ledger';
import { accountOf, createCard, failedOperations, opId, posTestFile } from './pos.fixtures';

const { db, pos, other } = await posTestFile({ ruleset: { percent: 10 } });

const receipt = { receiptId: 'R-9', items: [{ sku: 'A', quantity: 3, price: 10, category: 'x' }] };

function expectReplay(first: LightMyRequestResponse, again: LightMyRequestResponse) {
  expect(again.statusCode).toBe(first.statusCode);
  expect(again.body).toBe(first.body);
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(first.headers['idempotent-replayed']).toBeUndefined();
}

describe('idempotency by operationId', () => {
  it('replays each write: same status, byte-identical body, Idempotent-Replayed: true, no second effect', async () => {
    const card = await createCard(db, { balance: 100 });

    const accrual = { operationId: opId('acc'), cardNumber: card.number, receipt };
    const a1 = await pos.accrue(accrual);
    expect(a1.statusCode).toBe(201);
    expectReplay(a1, await pos.accrue(accrual));

    const hold = { operationId: opId('hold'), cardNumber: card.number, points: 40 };
    const h1 = await pos.hold(hold);
    expectReplay(h1, await pos.hold(hold));
    const holdId = h1.json().holdId;

    const capture = { operationId: opId('cap'), points: 15 };
    const c1 = await pos.capture(holdId, capture);
    expect(c1.statusCode).toBe(200);
    expectReplay(c1, await pos.capture(holdId, capture));

    const h2 = await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 5 });
    const release = { operationId: opId('rel') };
    const r1 = await pos.release(h2.json().holdId, release);
    expect(r1.statusCode).toBe(200);
    expectReplay(r1, await pos.release(h2.json().holdId, release));

    const ret = {
      operationId: opId('ret'),
      originalOperationId: accrual.operationId,
      items: [{ sku: 'A', quantity: 1 }],
    };
    const t1 = await pos.returns(ret);
    expect(t1.statusCode).toBe(201);
    expectReplay(t1, await pos.returns(ret));

    // 100 + 3 (accrual) − 15 (capture) − 1 (return of one A) = 87; the hold of 40 was closed by its capture.
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 87, held: 0 });
    expect((await verifyLedger(db)).differences).toEqual([]);
  });

  it('replays an answer stored under an older contract as it was stored (an accrual from before rules v2)', async () => {
    const card = await createCard(db, { balance: 0 });
    const accrual = { operationId: opId('old'), cardNumber: card.number, receipt };
    expect((await pos.accrue(accrual)).statusCode).toBe(201);
    // Accruals answered before migration 018 were stored without each item's `rule`.
    await sql`update pos_requests set response = jsonb_set(response, '{receipt,items,0}',
      (response #> '{receipt,items,0}') - 'rule') where operation_id = ${accrual.operationId}`.execute(db);
    const again = await pos.accrue(accrual);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toMatchObject({ operationId: accrual.operationId, points: 3 });
    expect(again.json().receipt.items[0]).not.toHaveProperty('rule');
  });

  it('the same body with keys in another order is the same request', async () => {
    const card = await createCard(db, { balance: 10 });
    const id = opId();
    const first = await pos.hold({ operationId: id, cardNumber: card.number, points: 1 });
    expectReplay(first, await pos.hold({ points: 1, cardNumber: card.number, operationId: id }));
  });

  it('replays refusals too: the retry of a refused request gets the same error, even when it would pass now', async () => {
    const card = await createCard(db, { balance: 5 });
    const body = { operationId: opId(), cardNumber: card.number, points: 8 };
    const first = await pos.hold(body);
    expect(first.statusCode).toBe(409);
    expect(first.json().code).toBe('INSUFFICIENT_FUNDS');
    await pos.accrue({
      operationId: opId(),
      cardNumber: card.number,
      receipt: { receiptId: 'x', items: [{ sku: 'B', quantity: 1, price: 100 }] },
    });
    expectReplay(first, await pos.hold(body));
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 15, held: 0 });
  });

  it('the same id with a different body is 409 OPERATION_ID_ALREADY_USED (also across endpoints)', async () => {
    const card = await createCard(db, { balance: 50 });
    const id = opId();
    expect((await pos.hold({ operationId: id, cardNumber: card.number, points: 1 })).statusCode).toBe(201);
    const conflicts = [
      await pos.hold({ operationId: id, cardNumber: card.number, points: 2 }),
      await pos.accrue({ operationId: id, cardNumber: card.number, receipt }),
      await pos.returns({ operationId: id, originalOperationId: 'whatever' }),
    ];
    for (const res of conflicts) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'OPERATION_ID_ALREADY_USED',
        message: 'Operation ID already used',
      });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 1 });
    const recorded = await failedOperations(db, 'OPERATION_ID_ALREADY_USED');
    expect(recorded).toHaveLength(3);
    expect(
      recorded.every(
        (r) => r.operation_id === null && (r.meta as { operationId: string }).operationId === id,
      ),
    ).toBe(true);
  });

  it('an id used by another POS is 409 OPERATION_ID_USED_BY_OTHER_POS, even with the same body', async () => {
    const card = await createCard(db, { balance: 50 });
    const body = { operationId: opId(), cardNumber: card.number, points: 1 };
    expect((await pos.hold(body)).statusCode).toBe(201);
    const res = await other.hold(body);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'OPERATION_ID_USED_BY_OTHER_POS',
      message: 'Operation ID used by other POS',
    });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 1 });
    expect(await failedOperations(db, 'OPERATION_ID_USED_BY_OTHER_POS')).toHaveLength(1);
  });

  it('an operationId whose request failed validation stays free', async () => {
    const card = await createCard(db, { balance: 50 });
    const id = opId();
    expect((await pos.hold({ operationId: id, cardNumber: card.number, points: -1 })).statusCode).toBe(400);
    expect((await pos.hold({ operationId: id, cardNumber: card.number, points: 1 })).statusCode).toBe(201);
  });
});
