import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { cardKey, useGroupCommit } from '../../db/group-commit';
import { accrualBatches } from '../ledger/accrual-batch';
import {
  accountOf,
  createCard,
  createRuleset,
  expectSplitAsAlone,
  failedOperations,
  lockWaits,
  opId,
  posTestFile,
  recordedBatches,
  whileLocked,
  writers,
} from './pos.fixtures';

/**
 * Accruals of many cards written as one set-based batch (issue 13), through the API: paused while the
 * requests are sent, each sent once the one before it waits in the queue, so they form one batch. Each
 * must be answered exactly as if written alone. The ledger is verified after the file (posTestFile).
 */
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });
const { batches, queue, inOneBatch } = recordedBatches((options) => accrualBatches.use(db, options));

const accrual = (cardNumber: string, operationId = opId('acc'), price = 100) => ({
  operationId,
  cardNumber,
  receipt: { receiptId: operationId, items: [{ sku: 'A', quantity: 1, price }] },
});

describe('set-based batches of accruals across cards', () => {
  it('writes the cards of a batch in one transaction; a refused one gets its error, the others their answers', async () => {
    const cards = [
      await createCard(db, { balance: 5 }),
      await createCard(db, { balance: 0 }),
      await createCard(db, { balance: 0, status: 'blocked' }),
      await createCard(db, { balance: 7 }),
    ];
    const bodies = cards.map((card, i) => accrual(card.number, opId('acc'), 100 * (i + 1)));
    const answers = await inOneBatch(bodies.map((body) => () => pos.accrue(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 409, 201]);
    expect(answers[2]!.json().code).toBe('CARD_BLOCKED');
    expect([0, 1, 3].map((i) => answers[i]!.json().balance)).toEqual([15, 20, 47]);
    const written = [0, 1, 3].map((i) => bodies[i]!.operationId);
    expect(await writers(db, written)).toHaveLength(1);
    expect(await accountOf(db, cards[3]!.accountId)).toEqual({ balance: 47, held: 0 });
    expect((await failedOperations(db, 'CARD_BLOCKED')).map((f) => f.operation_id)).toContain(
      bodies[2]!.operationId,
    );
    // Each event carries the balances after its own accrual, as a lone write's does.
    const { rows } = await sql<{
      data: { operationId: string; points: string; balance: number; availableBalance: number };
    }>`
      select data from events where type = 'points.accrued' and data->>'operationId' = any(${written}::text[])`.execute(
      db,
    );
    const events = new Map(rows.map((r) => [r.data.operationId, r.data]));
    for (const i of [0, 1, 3]) {
      const answer = answers[i]!.json();
      const event = events.get(bodies[i]!.operationId)!;
      expect(event).toMatchObject({ balance: answer.balance, availableBalance: answer.balance });
      expect(Number(event.points)).toBe(answer.points);
    }
    // A replay gets the stored answer, byte for byte.
    const replay = await pos.accrue(bodies[1]);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(answers[1]!.body);
  });

  it("writes a card's second accrual alone after the batch, on the first one's balance", async () => {
    const [a, b] = [await createCard(db, { balance: 0 }), await createCard(db, { balance: 0 })];
    const answers = await inOneBatch([a, b, a, a].map((card) => () => pos.accrue(accrual(card.number))));
    expect(answers.map((x) => x.statusCode)).toEqual([201, 201, 201, 201]);
    expect(answers.map((x) => x.json().balance).sort()).toEqual([10, 10, 20, 30]);
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 30, held: 0 });
    expect(await accountOf(db, b.accountId)).toEqual({ balance: 10, held: 0 });
  });

  it('the same request twice in a batch: one effect and a byte-identical replay', async () => {
    const cards = [await createCard(db), await createCard(db), await createCard(db)];
    const twice = accrual(cards[1]!.number);
    const bodies = [accrual(cards[0]!.number), twice, accrual(cards[2]!.number), twice];
    const answers = await inOneBatch(bodies.map((body) => () => pos.accrue(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201]);
    expect(answers[1]!.body).toBe(answers[3]!.body);
    expect(answers[3]!.headers['idempotent-replayed']).toBe('true');
    expect(await accountOf(db, cards[1]!.accountId)).toEqual({ balance: 10, held: 0 });
  });

  it('a batch whose statement fails (one operationId on two cards) is split: each answered as if alone', async () => {
    const cards = [await createCard(db), await createCard(db), await createCard(db), await createCard(db)];
    const taken = opId('acc');
    const bodies = [
      accrual(cards[0]!.number),
      accrual(cards[1]!.number, taken),
      accrual(cards[2]!.number),
      accrual(cards[3]!.number, taken),
    ];
    const answers = await inOneBatch(bodies.map((body) => () => pos.accrue(body)));
    expect(batches).toEqual([{ size: 4, outcome: 'split' }]);
    expectSplitAsAlone(answers, 201);
    const balances = [
      (await accountOf(db, cards[1]!.accountId)).balance,
      (await accountOf(db, cards[3]!.accountId)).balance,
    ];
    expect(balances.sort()).toEqual([0, 10]);
    expect((await accountOf(db, cards[0]!.accountId)).balance).toBe(10);
  });

  it.runIf(ctx.database.kind === 'postgres')(
    'never waits for an account locked elsewhere: the others commit, that one is written once it is free',
    async () => {
      const [free, locked] = [await createCard(db), await createCard(db)];
      const holder = await whileLocked(db, { table: 'accounts', id: locked.accountId }, async (unlock) => {
        const pending = inOneBatch([
          () => pos.accrue(accrual(free.number)),
          () => pos.accrue(accrual(locked.number)),
        ]);
        // The free card's accrual commits while the other account is still locked.
        await vi.waitFor(
          async () => expect(await accountOf(db, free.accountId)).toEqual({ balance: 10, held: 0 }),
          { timeout: 60_000, interval: 10 },
        );
        expect(await accountOf(db, locked.accountId)).toEqual({ balance: 0, held: 0 });
        await unlock();
        return pending;
      });
      expect(holder.map((a) => a.statusCode)).toEqual([201, 201]);
      expect(await accountOf(db, locked.accountId)).toEqual({ balance: 10, held: 0 });
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    "an accrual alone waiting for an account locked elsewhere does not hold up the other cards' accruals",
    async () => {
      const [free, locked] = [await createCard(db), await createCard(db)];
      await whileLocked(db, { table: 'accounts', id: locked.accountId }, async (unlock) => {
        // A batch of one: written alone, it waits for the lock.
        const waiting = pos.accrue(accrual(locked.number));
        await vi.waitFor(async () => expect(await lockWaits(db)).toBeGreaterThan(0), {
          timeout: 60_000,
          interval: 10,
        });
        // Before the fix this one queued behind it for as long as the lock was held.
        const other = await pos.accrue(accrual(free.number));
        expect(other.statusCode).toBe(201);
        expect(await accountOf(db, locked.accountId)).toEqual({ balance: 0, held: 0 });
        await unlock();
        expect((await waiting).statusCode).toBe(201);
      });
      expect(await accountOf(db, locked.accountId)).toEqual({ balance: 10, held: 0 });
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'the retry of an offline purchase that ages past 30 days while its first attempt waits gets that answer',
    async () => {
      const card = await createCard(db);
      const body = {
        ...accrual(card.number),
        receipt: {
          receiptId: opId('R'),
          items: [{ sku: 'A', quantity: 1, price: 100 }],
          purchasedAt: new Date(Date.now() - 30 * 86_400_000 + 60_000).toISOString(),
        },
      };
      const commit = useGroupCommit(db, { lanes: 1, maxBatch: 16 });
      await whileLocked(db, { table: 'accounts', id: card.accountId }, async (unlock) => {
        // Accepted (the purchase is just inside 30 days), the first attempt (a batch of one, written in its
        // card's group commit) waits for the account.
        const first = pos.accrue(body);
        await vi.waitFor(async () => expect(await lockWaits(db)).toBe(1), { timeout: 60_000, interval: 10 });
        // The till gives up on it and retries two minutes later: the purchase is now over 30 days old. The
        // retry waits behind the first attempt in the card's group commit rather than refusing the purchase
        // (before the fix: 400 at once).
        vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 120_000 });
        try {
          const retry = pos.accrue(body);
          await vi.waitFor(() => expect(commit.queued()).toBe(1), { timeout: 60_000, interval: 2 });
          await unlock();
          const [a, b] = await Promise.all([first, retry]);
          expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
          expect(b.headers['idempotent-replayed']).toBe('true');
          expect(b.body).toBe(a.body);
        } finally {
          vi.useRealTimers();
        }
      });
      expect(await accountOf(db, card.accountId)).toEqual({ balance: 10, held: 0 });
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'a split batch whose lone write waits for a lock held elsewhere does not hold up the next batch',
    async () => {
      const [a, b, locked, free] = [
        await createCard(db),
        await createCard(db),
        await createCard(db),
        await createCard(db),
      ];
      const taken = opId('acc');
      await whileLocked(db, { table: 'accounts', id: locked.accountId }, async (unlock) => {
        // One operationId on two cards fails the batch's statement: each write then runs alone, the locked
        // card's waiting for its lock.
        const split = inOneBatch([
          () => pos.accrue(accrual(a.number, taken)),
          () => pos.accrue(accrual(locked.number)),
          () => pos.accrue(accrual(b.number, taken)),
        ]);
        await vi.waitFor(async () => expect(await lockWaits(db)).toBeGreaterThan(0), {
          timeout: 60_000,
          interval: 10,
        });
        const other = await pos.accrue(accrual(free.number));
        expect(other.statusCode).toBe(201);
        expect(batches).toEqual([{ size: 3, outcome: 'split' }]);
        await unlock();
        const answers = await split;
        expect(answers[1]!.statusCode).toBe(201);
        expect([answers[0]!.statusCode, answers[2]!.statusCode].sort()).toEqual([201, 409]);
      });
      expect(await accountOf(db, locked.accountId)).toEqual({ balance: 10, held: 0 });
    },
  );

  it("an accrual of a card the server is already writing joins that card's group commit, not the next batch", async () => {
    const card = await createCard(db, { balance: 0 });
    const commit = useGroupCommit(db, { lanes: 1, maxBatch: 16 });
    const resume = commit.pause();
    try {
      // Alone in its batch, the first accrual waits in its card's group commit (paused).
      const first = pos.accrue(accrual(card.number));
      await vi.waitFor(() => expect(commit.queued()).toBe(1), { timeout: 60_000, interval: 2 });
      expect(commit.busy(cardKey(card.number))).toBe(true);
      // The second goes straight to the card's queue: nothing waits for the accruals' batch.
      const second = pos.accrue(accrual(card.number));
      await vi.waitFor(() => expect(commit.queued()).toBe(2), { timeout: 60_000, interval: 2 });
      expect(queue.queued()).toBe(0);
      resume();
      const answers = await Promise.all([first, second]);
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
      expect(answers.map((a) => a.json().balance)).toEqual([10, 20]);
      // Both in the one transaction of the card's batch.
      expect(
        await writers(
          db,
          answers.map((a) => a.json().operationId),
        ),
      ).toHaveLength(1);
    } finally {
      resume();
      useGroupCommit(db, { lanes: 1, maxBatch: 16 });
    }
  });

  it('under a ruleset that caps points per card and day, the cards share a batch and the cap holds, counting what each card earned before it', async () => {
    await createRuleset(db, { version: 2, percent: 10, earningRules: { maxPointsPerCardPerDay: 15 } });
    const [a, b, c] = [await createCard(db), await createCard(db), await createCard(db)];
    // c earned 10 of its 15 today before the batch.
    expect((await pos.accrue(accrual(c.number))).json().points).toBe(10);
    const bodies = [a, b, a, b, c].map((card) => accrual(card.number));
    const answers = await inOneBatch(bodies.map((body) => () => pos.accrue(body)));
    expect(answers.slice(0, 4).map((x) => x.statusCode)).toEqual([201, 201, 201, 201]);
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 15, held: 0 });
    expect(await accountOf(db, b.accountId)).toEqual({ balance: 15, held: 0 });
    // a's, b's and c's first accruals in the batch's one transaction; the second ones of a and b alone after it.
    expect(batches).toEqual([{ size: 5, outcome: 'committed' }]);
    expect(
      await writers(
        db,
        [0, 1, 4].map((i) => bodies[i]!.operationId),
      ),
    ).toHaveLength(1);
    expect(answers[4]!.statusCode).toBe(201);
    expect(answers[4]!.json().points).toBe(5);
    expect(await accountOf(db, c.accountId)).toEqual({ balance: 15, held: 0 });
  });
});
