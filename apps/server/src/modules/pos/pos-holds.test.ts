import { describe, expect, it } from 'vitest';
import {
  accountOf,
  createCard,
  expireHold,
  failedOperations,
  opId,
  posTestFile,
  type Till,
} from './pos.fixtures';

const { db, pos, other, posId } = await posTestFile();

const opRow = (holdId: string) =>
  db.selectFrom('operations').selectAll().where('id', '=', holdId).executeTakeFirstOrThrow();

async function holdOn(number: string, points: number, by: Till = pos) {
  const res = await by.hold({ operationId: opId('hold'), cardNumber: number, points });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { holdId: string; expiresAt: string; availableBalance: number };
}

describe('POST /pos/api/v1/holds', () => {
  it('holds points for holds.ttl_minutes (15 when unset) and reports what is left available', async () => {
    const card = await createCard(db, { balance: 100 });
    const id = opId();
    const res = await pos.hold({ operationId: id, cardNumber: card.number, points: 30.25 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ operationId: id, points: 30.25, status: 'active', availableBalance: 69.75 });
    const minutes = (Date.parse(body.expiresAt) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.5);
    expect(minutes).toBeLessThanOrEqual(15);
    expect(await opRow(body.holdId)).toMatchObject({
      type: 'hold',
      status: 'active',
      points: '-30.25',
      pos_id: posId,
    });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 100, held: 30.25 });

    await db.insertInto('settings').values({ key: 'holds.ttl_minutes', value: 60 }).execute();
    try {
      const longer = await holdOn(card.number, 1);
      expect((Date.parse(longer.expiresAt) - Date.now()) / 60_000).toBeGreaterThan(59.5);
    } finally {
      // The file's other tests expect the default TTL, whether or not this one passed.
      await db.deleteFrom('settings').where('key', '=', 'holds.ttl_minutes').execute();
    }
  });

  it('refuses more than is available with 409 INSUFFICIENT_FUNDS and records the attempt', async () => {
    const card = await createCard(db, { balance: 10 });
    await holdOn(card.number, 6);
    const id = opId();
    const res = await pos.hold({ operationId: id, cardNumber: card.number, points: 4.01 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'INSUFFICIENT_FUNDS', message: 'Insufficient funds' });
    const failed = await db
      .selectFrom('operations')
      .selectAll()
      .where('operation_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(failed).toMatchObject({
      status: 'failed',
      type: 'hold',
      points: '-4.01',
      account_id: card.accountId,
    });
    expect(failed.meta).toEqual({ error: 'INSUFFICIENT_FUNDS' });
    expect((await holdOn(card.number, 4)).availableBalance).toBe(0);
  });

  it('answers 404 CARD_NOT_FOUND and 409 CARD_BLOCKED', async () => {
    const missing = await pos.hold({ operationId: opId(), cardNumber: '9999999999999999', points: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('CARD_NOT_FOUND');
    const blocked = await createCard(db, { balance: 10, status: 'blocked' });
    const res = await pos.hold({ operationId: opId(), cardNumber: blocked.number, points: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CARD_BLOCKED');
  });

  it('rejects non-positive or over-precise points with 400', async () => {
    const card = await createCard(db, { balance: 10 });
    for (const points of [0, -1, 1.005, '1', 1e-18]) {
      const res = await pos.hold({ operationId: opId(), cardNumber: card.number, points });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('capture and release', () => {
  it('captures the whole hold: a redemption, the hold applied, the balance debited', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 20);
    const id = opId('cap');
    const res = await pos.capture(hold.holdId, { operationId: id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ holdId: hold.holdId, status: 'captured', points: 20, balance: 30 });
    expect((await opRow(hold.holdId)).status).toBe('applied');
    const redemption = await db
      .selectFrom('operations')
      .selectAll()
      .where('operation_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(redemption).toMatchObject({
      type: 'redemption',
      status: 'completed',
      points: '-20.00',
      related_id: hold.holdId,
    });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 30, held: 0 });
  });

  it('captures part of a hold and releases the rest', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 20);
    await holdOn(card.number, 5);
    const res = await pos.capture(hold.holdId, { operationId: opId('cap'), points: 12.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'captured', points: 12.5, balance: 37.5 });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 37.5, held: 5 });
    expect((await opRow(hold.holdId)).meta).toMatchObject({
      reason: 'Captured 12.50 of 20.00 held; 7.50 released',
    });
  });

  it('refuses to capture more than is held (409 INSUFFICIENT_FUNDS); the hold stays usable', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    const res = await pos.capture(hold.holdId, { operationId: opId(), points: 10.01 });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'INSUFFICIENT_FUNDS',
      message: 'Capture exceeds the held points (10.00)',
    });
    expect((await pos.capture(hold.holdId, { operationId: opId(), points: 10 })).statusCode).toBe(200);
  });

  it('a second capture or a release after capture is 409 ALREADY_CAPTURED_OR_CLOSED', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    expect((await pos.capture(hold.holdId, { operationId: opId() })).statusCode).toBe(200);
    for (const res of [
      await pos.capture(hold.holdId, { operationId: opId() }),
      await pos.release(hold.holdId, { operationId: opId() }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('ALREADY_CAPTURED_OR_CLOSED');
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 40, held: 0 });
    const failed = await failedOperations(db, 'ALREADY_CAPTURED_OR_CLOSED');
    expect(failed.filter((f) => f.related_id === hold.holdId)).toHaveLength(2);
  });

  it("another POS's hold is 404 NO_ACTIVE_HOLD_FOR_POS; an unknown hold 404 HOLD_NOT_FOUND", async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    for (const res of [
      await other.capture(hold.holdId, { operationId: opId() }),
      await other.release(hold.holdId, { operationId: opId() }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NO_ACTIVE_HOLD_FOR_POS', message: 'No active hold for POS' });
    }
    for (const holdId of ['00000000-0000-4000-8000-000000000000', 'not-a-hold-id']) {
      const res = await pos.capture(holdId, { operationId: opId() });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'HOLD_NOT_FOUND', message: 'Hold not found' });
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 10 });
  });

  it('an expired hold is 409 HOLD_EXPIRED at capture and is voided there, and stays expired', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    await expireHold(db, hold.holdId);
    const res = await pos.capture(hold.holdId, { operationId: opId() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'HOLD_EXPIRED', message: 'Hold expired' });
    expect(await opRow(hold.holdId)).toMatchObject({ status: 'voided', meta: { reason: 'Expired' } });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 0 });
    // Issue 15.5: expired whether or not it has been voided since.
    const again = await pos.release(hold.holdId, { operationId: opId() });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('HOLD_EXPIRED');
  });

  it('a capture on a card blocked since the hold is 409 CARD_BLOCKED; a release still works', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    await db.updateTable('cards').set({ status: 'blocked' }).where('id', '=', card.cardId).execute();
    const res = await pos.capture(hold.holdId, { operationId: opId() });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('CARD_BLOCKED');
    const released = await pos.release(hold.holdId, { operationId: opId() });
    expect(released.statusCode).toBe(200);
    expect(released.json()).toEqual({ holdId: hold.holdId, status: 'released', availableBalance: 50 });
  });

  it('releases a hold: voided, its points available again', async () => {
    const card = await createCard(db, { balance: 50 });
    const hold = await holdOn(card.number, 10);
    await holdOn(card.number, 15);
    const res = await pos.release(hold.holdId, { operationId: opId('rel') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ holdId: hold.holdId, status: 'released', availableBalance: 35 });
    expect(await opRow(hold.holdId)).toMatchObject({ status: 'voided', meta: { reason: 'Released' } });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 50, held: 15 });
  });
});
