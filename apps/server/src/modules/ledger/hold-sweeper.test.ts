import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, createTestContext } from '../../../test/helper';
import { accountOf, createCard, createPosKey, expireHold, opId, type Till, till } from '../pos/pos.fixtures';
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
    expect(counts.reduce((s, n) => s + n, 0)).toBe(holds.length);
    for (const card of cards) expect(await accountOf(db, card.accountId)).toEqual({ balance: 100, held: 0 });
  });

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
