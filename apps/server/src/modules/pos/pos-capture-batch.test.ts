import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { cardKey, useGroupCommit } from '../../db/group-commit';
import { captureBatches } from '../ledger/capture-batch';
import { verifyLedger } from '../ledger/verify-ledger';
import {
  accountOf,
  createCard,
  expectSplitAsAlone,
  expireHold,
  failedOperations,
  opId,
  posTestFile,
  recordedBatches,
  whileLocked,
  writers,
} from './pos.fixtures';

/**
 * Captures of many cards written as one set-based batch (issue 13), through the API: paused while the
 * requests are sent, each sent once the one before it waits in the queue, so they form one batch. Each
 * must be answered exactly as if written alone. Holds are made beforehand (they are not batched across
 * cards). The ledger and its lots are verified after the file (posTestFile), and in the lots test too.
 */
const { ctx, db, pos, other } = await posTestFile({ ruleset: { percent: 10 } });
const { batches, queue, inOneBatch } = recordedBatches((options) => captureBatches.use(db, options));

async function holdOn(cardNumber: string, points: number, till = pos): Promise<string> {
  const res = await till.hold({ operationId: opId('hold'), cardNumber, points });
  expect(res.statusCode).toBe(201);
  return res.json().holdId;
}

async function holdRow(holdId: string) {
  const { rows } = await sql<{ status: string; reason: string | null }>`
    select status, meta->>'reason' as reason from operations where id = ${holdId}::uuid`.execute(db);
  return rows[0];
}

/** A credit of `points` with its lot, available and expiring when told (hours from now; null: never). */
async function addLot(
  card: { accountId: string; cardId: string; number: string },
  points: number,
  lot: { availableIn: number; expiresIn: number | null },
) {
  const hours = (h: number) => new Date(Date.now() + h * 3_600_000);
  const credit = await db
    .insertInto('operations')
    .values({
      type: 'accrual',
      status: 'completed',
      points,
      account_id: card.accountId,
      card_id: card.cardId,
      card_number: card.number,
      meta: JSON.stringify({ reason: 'test lot' }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const row = await db
    .insertInto('lots')
    .values({
      account_id: card.accountId,
      credit_id: credit.id,
      earned_at: hours(-1),
      available_at: hours(lot.availableIn),
      expires_at: lot.expiresIn === null ? null : hours(lot.expiresIn),
      points,
      remaining: points,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await sql`update accounts set balance = balance + ${points} where id = ${card.accountId}::uuid`.execute(db);
  return row.id;
}

/** What each of the account's lots still holds, by lot id. */
async function remainingOf(accountId: string) {
  const rows = await db
    .selectFrom('lots')
    .select(['id', 'remaining'])
    .where('account_id', '=', accountId)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.id, Number(r.remaining)]));
}

async function redeemedEvents(operationIds: string[]) {
  const { rows } = await sql<{ data: { operationId: string; balance: number; availableBalance: number } }>`
    select data from events where type = 'points.redeemed' and data->>'operationId' = any(${operationIds}::text[])`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.data.operationId, r.data]));
}

/**
 * A card of 40 points in four lots, 10 each: expiring in 2 days (`soonest`), in 5 days (`later`), never (the
 * card's opening balance, `never`), and one still pending for a day (`pending`).
 */
async function cardWithLots() {
  const card = await createCard(db, { balance: 10 });
  const added = {
    later: await addLot(card, 10, { availableIn: -1, expiresIn: 5 * 24 }),
    soonest: await addLot(card, 10, { availableIn: -1, expiresIn: 2 * 24 }),
    pending: await addLot(card, 10, { availableIn: 24, expiresIn: 25 }),
  };
  const [never] = Object.keys(await remainingOf(card.accountId)).filter(
    (id) => !Object.values(added).includes(id),
  );
  return { card, lots: { ...added, never: never! } };
}

describe('set-based batches of captures across cards', () => {
  it('captures several cards in one transaction; each refusal is answered and recorded as alone', async () => {
    const cards = await Promise.all([50, 50, 50, 50, 50, 50].map((balance) => createCard(db, { balance })));
    const holds = [
      await holdOn(cards[0]!.number, 20),
      await holdOn(cards[1]!.number, 20, other),
      await holdOn(cards[2]!.number, 20),
      await holdOn(cards[3]!.number, 20),
      await holdOn(cards[4]!.number, 20),
      await holdOn(cards[5]!.number, 20),
    ];
    expect((await pos.capture(holds[3]!, { operationId: opId('cap') })).statusCode).toBe(200);
    await expireHold(db, holds[4]!);
    const bodies = [
      { operationId: opId('cap') },
      { operationId: opId('cap') },
      { operationId: opId('cap'), points: 20.01 },
      { operationId: opId('cap') },
      { operationId: opId('cap') },
      { operationId: opId('cap'), points: 12.5 },
    ];
    const answers = await inOneBatch(bodies.map((body, i) => () => pos.capture(holds[i]!, body)));
    expect(batches).toEqual([{ size: 6, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 404, 409, 409, 409, 200]);
    expect(answers.map((a) => a.json().code)).toEqual([
      undefined,
      'NO_ACTIVE_HOLD_FOR_POS',
      'INSUFFICIENT_FUNDS',
      'ALREADY_CAPTURED_OR_CLOSED',
      'HOLD_EXPIRED',
      undefined,
    ]);
    expect(answers[0]!.json()).toEqual({ holdId: holds[0], status: 'captured', points: 20, balance: 30 });
    expect(answers[5]!.json()).toEqual({ holdId: holds[5], status: 'captured', points: 12.5, balance: 37.5 });
    expect(await writers(db, [bodies[0]!.operationId, bodies[5]!.operationId])).toHaveLength(1);

    // A partial capture: its reason says what was released, and the rest is available again.
    expect(await holdRow(holds[5]!)).toEqual({
      status: 'applied',
      reason: 'Captured 12.50 of 20.00 held; 7.50 released',
    });
    expect(await accountOf(db, cards[5]!.accountId)).toEqual({ balance: 37.5, held: 0 });
    expect(await accountOf(db, cards[0]!.accountId)).toEqual({ balance: 30, held: 0 });
    // Refused ones changed nothing but the expired hold, voided as a lone refusal voids it.
    expect(await accountOf(db, cards[1]!.accountId)).toEqual({ balance: 50, held: 20 });
    expect(await accountOf(db, cards[2]!.accountId)).toEqual({ balance: 50, held: 20 });
    expect(await accountOf(db, cards[4]!.accountId)).toEqual({ balance: 50, held: 0 });
    expect(await holdRow(holds[4]!)).toEqual({ status: 'voided', reason: 'Expired' });

    // Each refusal recorded as a lone one is: linked to the hold only for the POS that made it.
    const failed = new Map((await failedOperations(db)).map((f) => [f.operation_id, f]));
    const recorded = [1, 2, 3, 4].map((i) => {
      const f = failed.get(bodies[i]!.operationId)!;
      return {
        error: (f.meta as { error: string }).error,
        points: Number(f.points),
        account: f.account_id,
        related: f.related_id,
      };
    });
    expect(recorded).toEqual([
      { error: 'NO_ACTIVE_HOLD_FOR_POS', points: 0, account: null, related: null },
      { error: 'INSUFFICIENT_FUNDS', points: -20.01, account: cards[2]!.accountId, related: holds[2] },
      { error: 'ALREADY_CAPTURED_OR_CLOSED', points: 0, account: cards[3]!.accountId, related: holds[3] },
      { error: 'HOLD_EXPIRED', points: 0, account: cards[4]!.accountId, related: holds[4] },
    ]);

    // Replays get the stored answers, byte for byte; a refusal replays its error.
    for (const i of [0, 5, 2]) {
      const replay = await pos.capture(holds[i]!, bodies[i]);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(answers[i]!.body);
    }
  });

  it("takes each account's lots in the lone order; events carry each account's balances after", async () => {
    const { card: a, lots: aLots } = await cardWithLots();
    const b = await createCard(db, { balance: 10 });
    const bSoon = await addLot(b, 10, { availableIn: -1, expiresIn: 3 * 24 });
    const [bNever] = Object.keys(await remainingOf(b.accountId)).filter((id) => id !== bSoon);
    // A: 40 points, 10 of them pending: 30 available, 25 held. B: 20, 15 held.
    const holds = [await holdOn(a.number, 25), await holdOn(b.number, 15)];
    const bodies = [{ operationId: opId('cap') }, { operationId: opId('cap'), points: 12 }];
    const answers = await inOneBatch(bodies.map((body, i) => () => pos.capture(holds[i]!, body)));
    expect(batches).toEqual([{ size: 2, outcome: 'committed' }]);
    expect(answers.map((x) => x.json().balance)).toEqual([15, 8]);
    // Available before pending, soonest expiry first, the never-expiring last: per account.
    expect(await remainingOf(a.accountId)).toEqual({
      [aLots.soonest]: 0,
      [aLots.later]: 0,
      [aLots.never]: 5,
      [aLots.pending]: 10,
    });
    expect(await remainingOf(b.accountId)).toEqual({ [bSoon]: 0, [bNever!]: 8 });
    const events = await redeemedEvents(bodies.map((x) => x.operationId));
    expect(events.get(bodies[0]!.operationId)).toMatchObject({ balance: 15, availableBalance: 5 });
    expect(events.get(bodies[1]!.operationId)).toMatchObject({ balance: 8, availableBalance: 8 });
    const report = await verifyLedger(db);
    expect(report.differences).toEqual([]);
    expect(report.lots).toMatchObject({ lotsOff: [], accountsOff: [], debitsOff: [], creditsOff: [] });
  });

  it('several captures of one account in a batch: each on the balance and lots the one before it left', async () => {
    const { card: a, lots: aLots } = await cardWithLots();
    const b = await createCard(db, { balance: 50 });
    // A: 40 points, 10 of them pending: 30 available; 12 + 8 held.
    const holds = [await holdOn(a.number, 12), await holdOn(b.number, 5), await holdOn(a.number, 8)];
    const bodies = [
      { operationId: opId('cap') },
      { operationId: opId('cap') },
      { operationId: opId('cap'), points: 6 },
    ];
    const answers = await inOneBatch(bodies.map((body, i) => () => pos.capture(holds[i]!, body)));
    expect(batches).toEqual([{ size: 3, outcome: 'committed' }]);
    expect(answers.map((x) => x.statusCode)).toEqual([200, 200, 200]);
    expect(answers.map((x) => x.json().balance)).toEqual([28, 45, 22]);
    expect(
      await writers(
        db,
        bodies.map((x) => x.operationId),
      ),
    ).toHaveLength(1);
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 22, held: 0 });
    // The first takes the soonest lot and 2 of the next; the second goes on from there.
    expect(await remainingOf(a.accountId)).toEqual({
      [aLots.soonest]: 0,
      [aLots.later]: 2,
      [aLots.never]: 10,
      [aLots.pending]: 10,
    });
    const { rows } = await sql<{ operation_id: string; lot_id: string; points: string }>`
      select o.operation_id, c.lot_id, c.points from lot_consumptions c join operations o on o.id = c.operation_id
      where o.account_id = ${a.accountId}::uuid order by o.operation_id, c.points desc`.execute(db);
    expect(rows.map((r) => [r.operation_id, r.lot_id, Number(r.points)])).toEqual(
      [
        [bodies[0]!.operationId, aLots.soonest, 10],
        [bodies[0]!.operationId, aLots.later, 2],
        [bodies[2]!.operationId, aLots.later, 6],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    // Each event shows the account just after its capture: 8 still held after the first, 2 released after the second.
    const events = await redeemedEvents(bodies.map((x) => x.operationId));
    expect(events.get(bodies[0]!.operationId)).toMatchObject({ balance: 28, availableBalance: 10 });
    expect(events.get(bodies[2]!.operationId)).toMatchObject({ balance: 22, availableBalance: 12 });
    const report = await verifyLedger(db);
    expect(report.differences).toEqual([]);
    expect(report.lots).toMatchObject({ lotsOff: [], accountsOff: [], debitsOff: [], creditsOff: [] });
  });

  it('one hold captured twice in a batch: the second, alone, finds it captured; the same request replays', async () => {
    const [a, b] = [await createCard(db, { balance: 50 }), await createCard(db, { balance: 50 })];
    const [hold, otherHold] = [await holdOn(a.number, 10), await holdOn(b.number, 10)];
    const first = { operationId: opId('cap') };
    const answers = await inOneBatch([
      () => pos.capture(hold, first),
      () => pos.capture(otherHold, { operationId: opId('cap') }),
      () => pos.capture(hold, { operationId: opId('cap') }),
      () => pos.capture(hold, first),
    ]);
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((x) => x.statusCode)).toEqual([200, 200, 409, 200]);
    expect(answers[2]!.json().code).toBe('ALREADY_CAPTURED_OR_CLOSED');
    expect(answers[3]!.headers['idempotent-replayed']).toBe('true');
    expect(answers[3]!.body).toBe(answers[0]!.body);
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 40, held: 0 });
  });

  it('a batch whose statement fails (one operationId on two holds) is split: each answered as if alone', async () => {
    const cards = await Promise.all([20, 20, 20, 20].map((balance) => createCard(db, { balance })));
    const holds: string[] = [];
    for (const card of cards) holds.push(await holdOn(card.number, 10));
    const taken = opId('cap');
    const bodies = [
      { operationId: opId('cap') },
      { operationId: taken },
      { operationId: opId('cap') },
      { operationId: taken },
    ];
    const answers = await inOneBatch(bodies.map((body, i) => () => pos.capture(holds[i]!, body)));
    expect(batches).toEqual([{ size: 4, outcome: 'split' }]);
    expectSplitAsAlone(answers, 200);
    const balances = [
      (await accountOf(db, cards[1]!.accountId)).balance,
      (await accountOf(db, cards[3]!.accountId)).balance,
    ];
    expect(balances.sort()).toEqual([10, 20]);
    expect(await accountOf(db, cards[0]!.accountId)).toEqual({ balance: 10, held: 0 });
  });

  it('a malformed or unknown hold id is answered HOLD_NOT_FOUND, as alone', async () => {
    const card = await createCard(db, { balance: 20 });
    const hold = await holdOn(card.number, 10);
    const answers = await inOneBatch([
      () => pos.capture('not-a-uuid', { operationId: opId('cap') }),
      () => pos.capture(hold, { operationId: opId('cap') }),
      () => pos.capture('6f1c1a55-0000-4000-8000-000000000000', { operationId: opId('cap') }),
    ]);
    expect(answers.map((x) => x.statusCode)).toEqual([404, 200, 404]);
    expect([answers[0]!.json().code, answers[2]!.json().code]).toEqual(['HOLD_NOT_FOUND', 'HOLD_NOT_FOUND']);
  });

  it("a capture of a card the server is already writing joins that card's group commit, not the next batch", async () => {
    const card = await createCard(db, { balance: 50 });
    const holds = [await holdOn(card.number, 10), await holdOn(card.number, 20)];
    const commit = useGroupCommit(db, { lanes: 1, maxBatch: 16 });
    const resume = commit.pause();
    try {
      // Alone in its batch, the first capture waits in its card's group commit (paused).
      const first = pos.capture(holds[0]!, { operationId: opId('cap') });
      await vi.waitFor(() => expect(commit.queued()).toBe(1), { timeout: 60_000, interval: 2 });
      expect(commit.busy(cardKey(card.number))).toBe(true);
      // The second goes straight to the card's queue: nothing waits for the captures' batch.
      const second = pos.capture(holds[1]!, { operationId: opId('cap') });
      await vi.waitFor(() => expect(commit.queued()).toBe(2), { timeout: 60_000, interval: 2 });
      expect(queue.queued()).toBe(0);
      resume();
      const answers = await Promise.all([first, second]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(answers.map((a) => a.json().balance)).toEqual([40, 20]);
    } finally {
      resume();
      useGroupCommit(db, { lanes: 1, maxBatch: 16 });
    }
  });

  it.runIf(ctx.database.kind === 'postgres')(
    'never waits for a hold locked elsewhere: the others commit, that one is written once it is free',
    async () => {
      const [free, locked] = [await createCard(db, { balance: 30 }), await createCard(db, { balance: 30 })];
      const holds = [await holdOn(free.number, 10), await holdOn(locked.number, 10)];
      const answers = await whileLocked(db, { table: 'operations', id: holds[1]! }, async (unlock) => {
        const pending = inOneBatch(
          holds.map((hold) => () => pos.capture(hold, { operationId: opId('cap') })),
        );
        // The free card's capture commits while the other hold is still locked.
        await vi.waitFor(
          async () => expect(await accountOf(db, free.accountId)).toEqual({ balance: 20, held: 0 }),
          { timeout: 60_000, interval: 10 },
        );
        expect(await accountOf(db, locked.accountId)).toEqual({ balance: 30, held: 10 });
        await unlock();
        return pending;
      });
      expect(answers.map((x) => x.statusCode)).toEqual([200, 200]);
      expect(await accountOf(db, locked.accountId)).toEqual({ balance: 20, held: 0 });
    },
  );
});
