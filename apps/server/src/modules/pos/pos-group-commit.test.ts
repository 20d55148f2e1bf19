import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { useGroupCommit } from '../../db/group-commit';
import { metricSum } from '../../plugins/metrics.test-support';
import { accrualBatches } from '../ledger/accrual-batch';
import { captureBatches, capturesInGroupCommit } from '../ledger/capture-batch';
import { holdBatches, holdsInGroupCommit } from '../ledger/hold-batch';
import {
  accountOf,
  createCard,
  failedOperations,
  lockWaits,
  opId,
  posTestFile,
  inOneBatch as sendInOneBatch,
} from './pos.fixtures';

/**
 * POS writes group-committed (issue 13), through the API: one lane per card, paused while the requests are
 * sent, each sent once the one before it waits in the queue, so a card's writes go in one batch in the
 * order sent. The ledger is verified after the file (posTestFile).
 */
const { ctx, db, pos } = await posTestFile({ ruleset: { percent: 10 } });
// This file is about a card's writes sharing its transaction, accruals, holds and captures included: no
// set-based batches across cards here (pos-accrual-batch.test.ts, pos-hold-batch.test.ts and
// pos-capture-batch.test.ts test those).
accrualBatches.use(db, null);
holdBatches.use(db, null);
captureBatches.use(db, null);
const batches: Array<{ size: number; outcome: string }> = [];
const commit = useGroupCommit(db, {
  lanes: 1,
  maxBatch: 16,
  onBatch: (size, outcome) => {
    batches.push({ size, outcome });
    ctx.app.metrics.groupCommitBatch('card', size, outcome);
  },
});

function inOneBatch<T>(requests: Array<() => Promise<T>>): Promise<T[]> {
  batches.length = 0;
  return sendInOneBatch(commit, requests);
}

const accrual = (cardNumber: string, operationId = opId('acc'), price = 100) => ({
  operationId,
  cardNumber,
  receipt: { receiptId: operationId, items: [{ sku: 'A', quantity: 1, price }] },
});

describe('group-committed POS writes', () => {
  it('a batch with one refused request answers the others their successes and that one its error', async () => {
    const card = await createCard(db, { balance: 0 });
    const refused = { operationId: opId('h'), cardNumber: card.number, points: 25 };
    const answers = await inOneBatch([
      () => pos.accrue(accrual(card.number)),
      () => pos.accrue(accrual(card.number)),
      () => pos.hold(refused),
      () => pos.accrue(accrual(card.number)),
      () => pos.accrue(accrual(card.number)),
    ]);
    expect(batches).toEqual([{ size: 5, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 409, 201, 201]);
    expect(answers[2]!.json().code).toBe('INSUFFICIENT_FUNDS');
    // Each saw the ones before it in the batch, as one after another would: 20 points when the hold asked 25.
    expect(answers.filter((a) => a.statusCode === 201).map((a) => a.json().balance)).toEqual([
      10, 20, 30, 40,
    ]);
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 40, held: 0 });
    const failed = await failedOperations(db, 'INSUFFICIENT_FUNDS');
    expect(failed.map((f) => f.operation_id)).toContain(refused.operationId);
  });

  it('batches each card apart: writes of other cards are not in its transaction', async () => {
    const [a, b] = [await createCard(db, { balance: 0 }), await createCard(db, { balance: 0 })];
    const answers = await inOneBatch([a, b, a, b, a].map((card) => () => pos.accrue(accrual(card.number))));
    expect(answers.map((x) => x.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(batches.map((x) => x.size).sort()).toEqual([2, 3]);
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 30, held: 0 });
  });

  it('a batch whose statement fails (one operationId twice) is split: one effect, a replay, the rest done', async () => {
    const card = await createCard(db, { balance: 0 });
    const twice = accrual(card.number);
    const bodies = [accrual(card.number), twice, accrual(card.number), twice, accrual(card.number)];
    const answers = await inOneBatch(bodies.map((body) => () => pos.accrue(body)));
    expect(batches).toEqual([{ size: 5, outcome: 'split' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201]);
    expect(answers[1]!.body).toBe(answers[3]!.body);
    expect([answers[1], answers[3]].filter((a) => a!.headers['idempotent-replayed'] === 'true')).toHaveLength(
      1,
    );
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 40, held: 0 });
  });

  it('holds, captures and a refused capture of one card in one batch: each answered as if alone', async () => {
    const card = await createCard(db, { balance: 100 });
    const held = (await pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 30 })).json();
    const answers = await inOneBatch([
      () => pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 50 }),
      () => pos.capture(held.holdId, { operationId: opId('c'), points: 20 }),
      () => pos.hold({ operationId: opId('h'), cardNumber: card.number, points: 60 }),
      () => pos.capture(held.holdId, { operationId: opId('c') }),
    ]);
    expect(batches).toEqual([{ size: 4, outcome: 'committed' }]);
    expect(answers.map((a) => a.statusCode)).toEqual([201, 200, 409, 409]);
    expect(answers[0]!.json().availableBalance).toBe(20);
    expect(answers[1]!.json()).toMatchObject({ status: 'captured', points: 20, balance: 80 });
    expect(answers[2]!.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(answers[3]!.json().code).toBe('ALREADY_CAPTURED_OR_CLOSED');
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 80, held: 50 });
  });

  it("a hot card's holds and captures in one batch: one set-based write per kind, each on the ones before it", async () => {
    const card = await createCard(db, { balance: 100 });
    const hold = async (points: number) =>
      (await pos.hold({ operationId: opId('h'), cardNumber: card.number, points })).json().holdId as string;
    const [h10, h20] = [await hold(10), await hold(20)];
    const holds = vi.spyOn(holdsInGroupCommit, 'write');
    const captures = vi.spyOn(capturesInGroupCommit, 'write');
    const bodies = {
      h30: { operationId: opId('h'), cardNumber: card.number, points: 30 },
      h50: { operationId: opId('h'), cardNumber: card.number, points: 50 },
      h1: { operationId: opId('h'), cardNumber: card.number, points: 1 },
    };
    const answers = await inOneBatch([
      () => pos.hold(bodies.h30),
      () => pos.capture(h10, { operationId: opId('c') }),
      () => pos.hold(bodies.h50),
      () => pos.capture(h20, { operationId: opId('c'), points: 5 }),
      () => pos.hold(bodies.h1),
    ]);
    expect(batches).toEqual([{ size: 5, outcome: 'committed' }]);
    expect(holds.mock.calls.map(([, inputs]) => inputs.map((h) => h.points))).toEqual([[3000n, 5000n, 100n]]);
    expect(captures.mock.calls.map(([, inputs]) => inputs.map((c) => c.holdId))).toEqual([[h10, h20]]);
    holds.mockRestore();
    captures.mockRestore();
    // The holds first (the first write's place), each on the held points before it: 40 left when 50 is asked.
    expect(answers.map((a) => a.statusCode)).toEqual([201, 200, 409, 200, 201]);
    expect(answers[0]!.json().availableBalance).toBe(40);
    expect(answers[2]!.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(answers[4]!.json().availableBalance).toBe(39);
    // Then the captures, each on the balance the one before it left; 15 of the 20 held released.
    expect(answers[1]!.json()).toMatchObject({ status: 'captured', points: 10, balance: 90 });
    expect(answers[3]!.json()).toMatchObject({ status: 'captured', points: 5, balance: 85 });
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 85, held: 31 });
  });

  it.runIf(ctx.database.kind === 'postgres')(
    "a hot card's set-based writes wait for its account locked elsewhere, as its lone writes do",
    async () => {
      const card = await createCard(db, { balance: 100 });
      const hold = (points: number) => ({ operationId: opId('h'), cardNumber: card.number, points });
      const [h1, h2] = [(await pos.hold(hold(10))).json().holdId, (await pos.hold(hold(10))).json().holdId];
      const holds = vi.spyOn(holdsInGroupCommit, 'write');
      const captures = vi.spyOn(capturesInGroupCommit, 'write');
      const answers = await ctx.database.db.connection().execute(async (conn) => {
        await sql`begin`.execute(conn);
        // A change of the account while the batch waits: its read is then stale, and read again.
        await sql`update accounts set balance = balance where id = ${card.accountId}::uuid`.execute(conn);
        const pending = inOneBatch([
          () => pos.hold(hold(5)),
          () => pos.hold(hold(5)),
          () => pos.capture(h1, { operationId: opId('c') }),
          () => pos.capture(h2, { operationId: opId('c') }),
        ]);
        // The batch's first read waits for the lock (a read that skipped it would hand every write back).
        await vi.waitFor(async () => expect(await lockWaits(db)).toBeGreaterThan(0), {
          timeout: 60_000,
          interval: 10,
        });
        await sql`commit`.execute(conn);
        return pending;
      });
      const outcomes = [...(await holds.mock.results[0]!.value), ...(await captures.mock.results[0]!.value)];
      holds.mockRestore();
      captures.mockRestore();
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 200, 200]);
      expect(outcomes.map((o) => o?.ok)).toEqual([true, true, true, true]);
      expect(await accountOf(db, card.accountId)).toEqual({ balance: 80, held: 10 });
    },
  );

  it("counts each batch in /metrics: its size, as a card's, by outcome", async () => {
    const committed = async () => {
      const body = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
      const series = 'loyalty_pos_group_commit_batch_size';
      return {
        count: metricSum(body, `${series}_count`, { kind: 'card', outcome: 'committed' }),
        sum: metricSum(body, `${series}_sum`, { kind: 'card', outcome: 'committed' }),
      };
    };
    const before = await committed();
    const card = await createCard(db, { balance: 0 });
    await inOneBatch([1, 2, 3].map(() => () => pos.accrue(accrual(card.number))));
    expect(await committed()).toEqual({ count: before.count + 1, sum: before.sum + 3 });
  });
});
