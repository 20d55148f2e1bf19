import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createTestContext } from '../../../test/helper';
import {
  accountOf,
  createCard,
  createPosKey,
  expireHold,
  opId,
  type Till,
  till,
  whileLocked,
} from '../pos/pos.fixtures';
import { sweepExpiredHolds } from './hold-sweeper';

const ctx = await createTestContext();
const db = ctx.database.db;

let pos: Till;

const opRow = (holdId: string) =>
  db.selectFrom('operations').selectAll().where('id', '=', holdId).executeTakeFirstOrThrow();

async function holdOn(number: string, points: number) {
  const res = await pos.hold({ operationId: opId('hold'), cardNumber: number, points });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { holdId: string };
}

beforeAll(async () => {
  pos = till(ctx, (await createPosKey(ctx)).apiKey);
});

// The ledger is verified after the file by the test context.
describe('hold sweeper', () => {
  it('voids expired holds only and releases their points, in batches', async () => {
    const a = await createCard(db, { balance: 100 });
    const b = await createCard(db, { balance: 100 });
    const expired = [await holdOn(a.number, 10), await holdOn(a.number, 5), await holdOn(b.number, 7)];
    const live = await holdOn(b.number, 3);
    for (const h of expired) await expireHold(db, h.holdId);
    // Expired holds of earlier tests may still be around; the sweep takes them all.
    const voided = await sweepExpiredHolds(db, 2);
    expect(voided).toBeGreaterThanOrEqual(3);
    for (const h of expired) expect((await opRow(h.holdId)).status).toBe('voided');
    expect((await opRow(live.holdId)).status).toBe('active');
    expect(await accountOf(db, a.accountId)).toEqual({ balance: 100, held: 0 });
    expect(await accountOf(db, b.accountId)).toEqual({ balance: 100, held: 3 });
    expect(await sweepExpiredHolds(db)).toBe(0);
  });

  it('several sweepers at once void each hold exactly once', async () => {
    const cards = await Promise.all(Array.from({ length: 6 }, () => createCard(db, { balance: 100 })));
    const holds = [];
    for (const card of cards) for (let i = 0; i < 5; i++) holds.push(await holdOn(card.number, 3));
    for (const h of holds) await expireHold(db, h.holdId);
    const counts = await Promise.all([1, 2, 3, 4].map(() => sweepExpiredHolds(db, 4)));
    // A sweep leaves the holds of an account another sweep has locked to the next one.
    counts.push(await sweepExpiredHolds(db, 4));
    expect(counts.reduce((s, n) => s + n, 0)).toBe(holds.length);
    for (const card of cards) expect(await accountOf(db, card.accountId)).toEqual({ balance: 100, held: 0 });
  });

  it.runIf(ctx.database.kind === 'postgres')(
    'never waits for an account locked elsewhere: its holds are left to the next sweep, the others voided',
    async () => {
      const [busy, free] = [await createCard(db, { balance: 50 }), await createCard(db, { balance: 50 })];
      const [onBusy, onFree] = [await holdOn(busy.number, 10), await holdOn(free.number, 10)];
      await expireHold(db, onBusy.holdId);
      await expireHold(db, onFree.holdId);
      // As a card's group commit holds its account while it wants a hold row: waiting here for the account,
      // with the hold row locked, the sweep would deadlock with it (before the fix this await never ended).
      await whileLocked(db, { table: 'accounts', id: busy.accountId }, async () => {
        expect(await sweepExpiredHolds(db)).toBeGreaterThanOrEqual(1);
        expect((await opRow(onFree.holdId)).status).toBe('voided');
        expect((await opRow(onBusy.holdId)).status).toBe('active');
      });
      expect(await sweepExpiredHolds(db)).toBe(1);
      expect((await opRow(onBusy.holdId)).status).toBe('voided');
      expect(await accountOf(db, busy.accountId)).toEqual({ balance: 50, held: 0 });
      expect(await accountOf(db, free.accountId)).toEqual({ balance: 50, held: 0 });
    },
  );

  it.runIf(ctx.database.kind === 'postgres')(
    'a hold it had to leave is not taken again by the same sweep: the next batches move on past it',
    async () => {
      const cards = await Promise.all([1, 2, 3].map(() => createCard(db, { balance: 50 })));
      const holds = [];
      for (const card of cards) holds.push(await holdOn(card.number, 5));
      for (const h of holds) await expireHold(db, h.holdId);
      // The locked account's hold lapsed first, so it heads every batch that does not leave it out.
      await sql`update operations set expires_at = now() - interval '1 hour' where id = ${holds[0]!.holdId}::uuid`.execute(
        db,
      );
      await whileLocked(db, { table: 'accounts', id: cards[0]!.accountId }, async () => {
        // Batches of one: without the list of holds left, each batch took the same hold again.
        expect(await sweepExpiredHolds(db, 1)).toBe(2);
      });
      expect((await opRow(holds[0]!.holdId)).status).toBe('active');
      for (const h of holds.slice(1)) expect((await opRow(h.holdId)).status).toBe('voided');
      expect(await sweepExpiredHolds(db)).toBe(1);
    },
  );

  it('the plugin runs it on HOLD_SWEEP_INTERVAL_MS', async () => {
    const card = await createCard(db, { balance: 20 });
    const res = await pos.hold({ operationId: opId(), cardNumber: card.number, points: 5 });
    expect(res.statusCode, res.body).toBe(201);
    await expireHold(db, res.json().holdId);
    // A second app on this file's database with the sweeper on; the file's own app has it off.
    const sweeping = await buildTestApp(ctx.database, { HOLD_SWEEP_INTERVAL_MS: '50' });
    try {
      await vi.waitFor(async () => expect((await accountOf(db, card.accountId)).held).toBe(0), {
        timeout: 20_000,
        interval: 50,
      });
    } finally {
      await sweeping.close();
    }
    expect(await accountOf(db, card.accountId)).toEqual({ balance: 20, held: 0 });
    expect((await opRow(res.json().holdId)).status).toBe('voided');
  });
});
