import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { holdBatches } from '../ledger/hold-batch';
import {
  accountOf,
  createCard,
  expectSplitAsAlone,
  expireHold,
  failedOperations,
  newCardNumber,
  opId,
  posTestFile,
  recordedBatches,
  whileLocked,
  writers,
} from './pos.fixtures';

/**
 * Holds of many cards written as one set-based batch (issue 13), through the API: paused while the
 * requests are sent, each sent once the one before it waits in the queue, so they form one batch. Each
 * must be answered exactly as if written alone. The ledger is verified after the file (posTestFile).
 */
const { ctx, db, pos } = await posTestFile();
const { batches, inOneBatch } = recordedBatches((options) => holdBatches.use(db, options));

const hold = (cardNumber: string, points: number, operationId = opId('h')) => ({
  operationId,
  cardNumber,
  points,
});

interface HoldEvent {
  operationId: string;
  points: string;
  balance: number;
  availableBalance: number;
}

async function holdEvents(operationIds: string[]): Promise<Map<string, HoldEvent>> {
  const { rows } = await sql<{ data: HoldEvent }>`
    select data from events where type = 'hold.created' and data->>'operationId' = any(${operationIds}::text[])`.execute(
    db,
  );
  return new Map(rows.map((r) => [r.data.operationId, r.data]));
}

/** An answer's body with what differs between two requests (ids, expiry) named instead of given. */
const shapeOf = (body: string) =>
  body.replace(/"(holdId|operationId|expiresAt)":"[^"]*"/g, (_, field: string) => `"${field}":"…"`);

/** Another card of the account. */
async function secondCard(accountId: string) {
  const number = newCardNumber();
  await db
    .insertInto('cards')
    .values({ number, account_id: accountId, status: 'active', issued_at: new Date() })
    .execute();
  return number;
}

describe('set-based batches of holds across cards', () => {
  it('holds the cards of a batch in one transaction; refused ones get their errors, recorded as alone', async () => {
    const cards = [
      await createCard(db, { balance: 100 }),
      await createCard(db, { balance: 50 }),
      await createCard(db, { balance: 10 }),
      await createCard(db, { balance: 10, status: 'blocked' }),
      await createCard(db, { balance: 70 }),
    ];
    const bodies = [
      hold(cards[0]!.number, 30),
      hold(cards[1]!.number, 12.5),
      hold(cards[2]!.number, 30),
      hold(cards[3]!.number, 1),
      hold('9999999999999999', 1),
      hold(cards[4]!.number, 70),
    ];
    const answers = await inOneBatch(bodies.map((body) => () => pos.hold(body)));
    expect(batches).toEqual([{ size: 6, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 409, 409, 404, 201]);
    expect(answers.slice(2, 5).map((a) => a.json().code)).toEqual([
      'INSUFFICIENT_FUNDS',
      'CARD_BLOCKED',
      'CARD_NOT_FOUND',
    ]);
    expect([0, 1, 5].map((i) => answers[i]!.json().availableBalance)).toEqual([70, 37.5, 0]);
    const written = [0, 1, 5].map((i) => bodies[i]!.operationId);
    expect(await writers(db, written)).toHaveLength(1);
    expect(await accountOf(db, cards[1]!.accountId)).toEqual({ balance: 50, held: 12.5 });
    expect(await accountOf(db, cards[2]!.accountId)).toEqual({ balance: 10, held: 0 });

    // The refusals are recorded against their card and account, as a lone refusal is.
    const failed = await failedOperations(db);
    const recorded = (i: number) => failed.find((f) => f.operation_id === bodies[i]!.operationId);
    expect(recorded(2)).toMatchObject({
      type: 'hold',
      points: '-30.00',
      account_id: cards[2]!.accountId,
      card_id: cards[2]!.cardId,
      meta: { error: 'INSUFFICIENT_FUNDS' },
    });
    expect(recorded(3)).toMatchObject({ account_id: cards[3]!.accountId, meta: { error: 'CARD_BLOCKED' } });

    // Each event carries the balances after its own hold, as a lone write's does.
    const events = await holdEvents(written);
    const balances = [100, 50, 0, 0, 0, 70];
    for (const i of [0, 1, 5]) {
      const answer = answers[i]!.json();
      const event = events.get(bodies[i]!.operationId)!;
      expect(event).toMatchObject({ balance: balances[i], availableBalance: answer.availableBalance });
      expect(Number(event.points)).toBe(-answer.points);
    }

    // A replay gets the stored answer, byte for byte; a lone hold's answer has the same bytes but its ids.
    const replay = await pos.hold(bodies[1]);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(answers[1]!.body);
    const loneBody = hold((await createCard(db, { balance: 100 })).number, 30);
    const lone = await pos.hold(loneBody);
    expect(shapeOf(lone.body)).toBe(shapeOf(answers[0]!.body));
    const loneEvent = (await holdEvents([loneBody.operationId])).get(loneBody.operationId)!;
    expect(Object.keys(events.get(bodies[0]!.operationId)!)).toEqual(Object.keys(loneEvent));
  });

  it('several holds of one account in a batch: each on the held points of the ones before it', async () => {
    const [a, b] = [await createCard(db, { balance: 100 }), await createCard(db, { balance: 20 })];
    const sameAccount = await secondCard(a.accountId);
    // 41 no longer fits beside 60 and 30: refused, as it would be after them alone.
    const bodies = [hold(a.number, 60), hold(b.number, 5), hold(a.number, 30), hold(sameAccount, 41)];
    const answers = await inOneBatch(bodies.map((body) => () => pos.hold(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((x) => x.statusCode)).toEqual([201, 201, 201, 409]);
    expect(answers.slice(0, 3).map((x) => x.json().availableBalance)).toEqual([40, 15, 10]);
    expect(answers[3]!.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 100, held: 90 });
    expect(
      await writers(
        db,
        bodies.slice(0, 3).map((x) => x.operationId),
      ),
    ).toHaveLength(1);
    // Each hold's event shows the account just after it.
    const { rows } = await sql<{ data: { operationId: string; availableBalance: number } }>`
      select data from events where type = 'hold.created'
        and data->>'operationId' = any(${bodies.map((x) => x.operationId)}::text[])`.execute(db);
    const available = new Map(rows.map((r) => [r.data.operationId, r.data.availableBalance]));
    expect(bodies.slice(0, 3).map((x) => available.get(x.operationId))).toEqual([40, 15, 10]);
  });

  it('a hold that fits only once a lapsed hold is voided is written alone; one that fits anyway is batched', async () => {
    const [inTheWay, aside, other] = [
      await createCard(db, { balance: 50 }),
      await createCard(db, { balance: 100 }),
      await createCard(db, { balance: 10 }),
    ];
    const lapsed = [
      (await pos.hold(hold(inTheWay.number, 40))).json(),
      (await pos.hold(hold(aside.number, 10))).json(),
    ];
    for (const h of lapsed) await expireHold(db, h.holdId);
    const bodies = [hold(inTheWay.number, 30), hold(aside.number, 30), hold(other.number, 10)];
    const answers = await inOneBatch(bodies.map((body) => () => pos.hold(body)));
    expect(batches).toEqual([{ size: 3, outcome: 'committed' }]);
    expect(answers.map((x) => x.statusCode)).toEqual([201, 201, 201]);
    // A lapsed hold no longer counts as held, whether it was voided first or not.
    expect(answers.map((x) => x.json().availableBalance)).toEqual([20, 70, 0]);
    const { rows } = await sql<{ status: string }>`
      select status from operations where id = any(${lapsed.map((h) => h.holdId)}::uuid[]) order by points`.execute(
      db,
    );
    expect(rows.map((r) => r.status)).toEqual(['voided', 'active']);
    expect(await accountOf(db, inTheWay.accountId)).toEqual({ balance: 50, held: 30 });
    expect(await accountOf(db, aside.accountId)).toEqual({ balance: 100, held: 40 });
    expect(await writers(db, [bodies[1]!.operationId, bodies[2]!.operationId])).toHaveLength(1);
    expect(
      await writers(
        db,
        bodies.map((b) => b.operationId),
      ),
    ).toHaveLength(2);
  });

  it('the same request twice in a batch: one effect and a byte-identical replay', async () => {
    const cards = [
      await createCard(db, { balance: 10 }),
      await createCard(db, { balance: 10 }),
      await createCard(db, { balance: 10 }),
    ];
    const twice = hold(cards[1]!.number, 4);
    const bodies = [hold(cards[0]!.number, 4), twice, hold(cards[2]!.number, 4), twice];
    const answers = await inOneBatch(bodies.map((body) => () => pos.hold(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    expect(answers[1]!.body).toBe(answers[3]!.body);
    expect(answers[3]!.headers['idempotent-replayed']).toBe('true');
    expect(await accountOf(db, cards[1]!.accountId)).toEqual({ balance: 10, held: 4 });
  });

  it('a batch whose statement fails (one operationId on two cards) is split: each answered as if alone', async () => {
    const cards = await Promise.all([1, 2, 3, 4].map(() => createCard(db, { balance: 10 })));
    const taken = opId('h');
    const bodies = [
      hold(cards[0]!.number, 3),
      hold(cards[1]!.number, 3, taken),
      hold(cards[2]!.number, 3),
      hold(cards[3]!.number, 3, taken),
    ];
    const answers = await inOneBatch(bodies.map((body) => () => pos.hold(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'split' }]);
    expectSplitAsAlone(answers, 201);
    const held = [
      (await accountOf(db, cards[1]!.accountId)).held,
      (await accountOf(db, cards[3]!.accountId)).held,
    ];
    expect(held.sort()).toEqual([0, 3]);
    expect(await accountOf(db, cards[0]!.accountId)).toEqual({ balance: 10, held: 3 });
  });

  it.runIf(ctx.database.kind === 'postgres')(
    'never waits for an account locked elsewhere: the others commit, that one is written once it is free',
    async () => {
      const [free, locked] = [await createCard(db, { balance: 10 }), await createCard(db, { balance: 10 })];
      const answers = await whileLocked(db, { table: 'accounts', id: locked.accountId }, async (unlock) => {
        const pending = inOneBatch([
          () => pos.hold(hold(free.number, 4)),
          () => pos.hold(hold(locked.number, 4)),
        ]);
        // The free card's hold commits while the other account is still locked.
        await vi.waitFor(
          async () => expect(await accountOf(db, free.accountId)).toEqual({ balance: 10, held: 4 }),
          { timeout: 60_000, interval: 10 },
        );
        expect(await accountOf(db, locked.accountId)).toEqual({ balance: 10, held: 0 });
        await unlock();
        return pending;
      });
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      expect(await accountOf(db, locked.accountId)).toEqual({ balance: 10, held: 4 });
    },
  );
});
