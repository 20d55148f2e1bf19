import { type KyselyPlugin, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import type { Tx } from '../../db/transaction';
import { expireHolds } from '../ledger/expire-holds';
import { lockHoldTarget } from '../ledger/holds.repository';
import { createCard, createPosKey, createRuleset, expireHold, lockWaits, opId, till } from './pos.fixtures';

/**
 * A hold decides on what the account can give (balance − held − pending, a lapsed hold no longer held) after
 * waiting for the account's lock. Here a write that changes the pending points or the holds commits while the
 * hold waits: on PostgreSQL the account is locked by the test, the write and then the hold queue behind it, and
 * the lock is let go. Group commit is off, as for requests reaching two servers (on one server a card's
 * writes share a transaction and never wait for each other like this). PGlite runs one transaction at a
 * time, so there the same requests run one after the other, and the same answers are due.
 */
const ctx = await createTestContext({
  POS_GROUP_COMMIT_LANES: '0',
});
const db = ctx.database.db;
const posKey = await createPosKey(ctx);
const pos = till(ctx, posKey.apiKey);
await createRuleset(db, { version: 1, percent: 10 });
const races = ctx.database.kind === 'postgres';

const pendingDays = (days: number | null) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/v1/settings',
    headers: bearer(ctx.tokens.ADMIN),
    payload: { points: { pending_days: days } },
  });

/** Runs `test` with a 3-day pending period, then sets it back. */
async function withPendingDays(test: () => Promise<void>): Promise<void> {
  expect((await pendingDays(3)).statusCode).toBe(200);
  try {
    await test();
  } finally {
    await pendingDays(null);
  }
}

/** An accrual of 10 points on the card (10% of 100), pending under `withPendingDays`. */
const accrueTen = (cardNumber: string) =>
  pos.accrue({
    operationId: opId('acc'),
    cardNumber,
    receipt: { receiptId: 'R', items: [{ sku: 'A', quantity: 1, price: 100 }] },
  });

/** Resolves once `n` statements of this database wait for a lock. */
async function lockWaiters(n: number): Promise<void> {
  while ((await lockWaits(db)) < n);
}

/**
 * Runs `first`, then `second`, each queued for the account's lock while the test holds it (on PostgreSQL),
 * then lets it go: `second` took its snapshot before `first` committed. On PGlite one after the other.
 */
async function queuedBehindLock<A, B>(
  accountId: string,
  first: () => Promise<A>,
  second: () => Promise<B>,
): Promise<[A, B]> {
  if (!races) return [await first(), await second()];
  let letGo!: () => void;
  const gate = new Promise<void>((resolve) => {
    letGo = resolve;
  });
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => {
    locked = resolve;
  });
  const holder = db.transaction().execute(async (trx) => {
    await sql`select id from accounts where id = ${accountId}::uuid for no key update`.execute(trx);
    locked();
    await gate;
  });
  await isLocked;
  const a = first();
  await lockWaiters(1);
  const b = second();
  await lockWaiters(2);
  letGo();
  await holder;
  return Promise.all([a, b]);
}

describe('a hold decides on what committed while it waited for the account', () => {
  it('does not take pending points an accrual committed meanwhile', () =>
    withPendingDays(async () => {
      const card = await createCard(db, { balance: 5 });
      const [accrual, hold] = await queuedBehindLock(
        card.accountId,
        () => accrueTen(card.number),
        () => pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 12 }),
      );
      expect(accrual.statusCode, accrual.body).toBe(201);
      // 5 available and 10 pending: a hold of 12 would hold pending points.
      expect(hold.statusCode, hold.body).toBe(409);
      expect(hold.json().code).toBe('INSUFFICIENT_FUNDS');
      expect((await pos.card(card.number)).json()).toMatchObject({
        balance: 15,
        heldBalance: 0,
        pendingBalance: 10,
        availableBalance: 5,
      });
    }));

  it('does not count a lapsed hold another write voided meanwhile twice', () =>
    withPendingDays(async () => {
      // 10 available, 10 pending; a hold of the 10 available that has lapsed.
      const card = await createCard(db, { balance: 10 });
      const accrued = await accrueTen(card.number);
      expect(accrued.statusCode, accrued.body).toBe(201);
      const lapsed = await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 10 });
      expect(lapsed.statusCode, lapsed.body).toBe(201);
      await expireHold(db, lapsed.json().holdId);

      // Voided by the account's own voiding of its lapsed holds (as before another hold or a return), which
      // waits for the account; the sweeper would leave a locked account's holds to its next run.
      const [, hold] = await queuedBehindLock(
        card.accountId,
        () => expireHolds(db, { accountId: card.accountId }),
        () => pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 15 }),
      );
      const voided = await sql<{ status: string }>`
        select status from operations where id = ${lapsed.json().holdId}::uuid`.execute(db);
      expect(voided.rows[0]!.status).toBe('voided');
      // Only the 10 available points may be held, whoever voided the lapsed hold.
      expect(hold.statusCode, hold.body).toBe(409);
      expect(hold.json().code).toBe('INSUFFICIENT_FUNDS');
      expect((await pos.card(card.number)).json()).toMatchObject({
        balance: 20,
        heldBalance: 0,
        pendingBalance: 10,
        availableBalance: 10,
      });
    }));

  it('a release answers the availableBalance after what committed while it waited', () =>
    withPendingDays(async () => {
      const card = await createCard(db, { balance: 5 });
      const hold = await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 5 });
      expect(hold.statusCode, hold.body).toBe(201);
      const [accrual, release] = await queuedBehindLock(
        card.accountId,
        () => accrueTen(card.number),
        () => pos.release(hold.json().holdId, { operationId: opId('rel') }),
      );
      expect(accrual.statusCode, accrual.body).toBe(201);
      expect(release.statusCode, release.body).toBe(200);
      // 15 points, 10 of them pending: 5 available, as the card says.
      expect(release.json().availableBalance).toBe(5);
      expect((await pos.card(card.number)).json()).toMatchObject({ balance: 15, availableBalance: 5 });
    }));
});

/** `trx` with every statement it sends counted. */
function counted(trx: Tx): { trx: Tx; statements: () => number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { trx: trx.withPlugin(plugin), statements: () => n };
}

/** `lockHoldTarget` in a transaction of its own (rolled back), with the statements it sent. */
async function lockTarget(cardNumber: string, before?: (trx: Tx) => Promise<unknown>) {
  let read: { pending: string; lapsed: string; statements: number } | undefined;
  await db
    .transaction()
    .execute(async (trx) => {
      await before?.(trx);
      const c = counted(trx);
      const target = await lockHoldTarget(c.trx, cardNumber, posKey.id);
      read = { pending: target.pending, lapsed: target.lapsed, statements: c.statements() };
      throw new Error('rollback');
    })
    .catch((error: Error) => {
      if (error.message !== 'rollback') throw error;
    });
  return read!;
}

describe('the second read after the lock happens only when the account changed while the write waited', () => {
  it('one statement when nothing changed the account, with its pending points read by it', () =>
    withPendingDays(async () => {
      const card = await createCard(db, { balance: 5 });
      const accrued = await accrueTen(card.number);
      expect(accrued.statusCode, accrued.body).toBe(201);
      expect(await lockTarget(card.number)).toEqual({ pending: '10.00', lapsed: '0', statements: 1 });
    }));

  it("one statement after the transaction's own change of the account (a card's next write in a batch)", async () => {
    const card = await createCard(db, { balance: 5 });
    const read = await lockTarget(card.number, (trx) =>
      sql`update accounts set held_balance = held_balance where id = ${card.accountId}::uuid`.execute(trx),
    );
    expect(read.statements).toBe(1);
  });

  it('two statements when a write committed while it waited for the lock (PostgreSQL), with what it wrote', () =>
    withPendingDays(async () => {
      const card = await createCard(db, { balance: 5 });
      const [accrual, read] = await queuedBehindLock(
        card.accountId,
        () => accrueTen(card.number),
        () => lockTarget(card.number),
      );
      expect(accrual.statusCode, accrual.body).toBe(201);
      expect(read).toEqual({ pending: '10.00', lapsed: '0', statements: races ? 2 : 1 });
    }));
});
