import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { verifyLedger } from '../../modules/ledger/verify-ledger';
import {
  createCard,
  createPosKey,
  createRuleset,
  opId,
  type Till,
  till,
} from '../../modules/pos/pos.fixtures';
import { derivedSnapshot, snapshotAndRebuild } from '../derived-snapshot';
import { migrateToLatest } from '../migrate';

// A database with every other migration (the triggers of migrations 002 and 004), written to through the
// POS API, then migrated to 010 in place. Later migrations that build on 010's definitions wait for it.
const BUILT_ON_010 = [
  '017-points-flow',
  '026-finance-rollups',
  '036-audit-counts',
  '042-audit-short-search',
  '043-webhook-delivery-counts',
];
const ctx = await createTestContext({}, { skipMigrations: ['010-derived-subsystem', ...BUILT_ON_010] });
const db = ctx.database.db;

const receipt = {
  receiptId: 'R-MIG',
  items: [
    { sku: 'A', quantity: 3, price: 10 },
    { sku: 'B', quantity: 1, price: 3.33 },
  ],
};

/** Every kind of POS write: accruals, a return, hold + capture, hold + release, and a refusal. */
async function posWrites(pos: Till): Promise<void> {
  for (let i = 0; i < 3; i++) {
    const card = await createCard(db, { balance: 50 });
    const accrual = opId('acc');
    expect((await pos.accrue({ operationId: accrual, cardNumber: card.number, receipt })).statusCode).toBe(
      201,
    );
    const returned = await pos.returns({ operationId: opId('ret'), originalOperationId: accrual });
    expect(returned.statusCode).toBe(201);
    const captured = (
      await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 10 })
    ).json();
    expect((await pos.capture(captured.holdId, { operationId: opId('cap'), points: 4 })).statusCode).toBe(
      200,
    );
    const released = (
      await pos.hold({ operationId: opId('hold'), cardNumber: card.number, points: 5 })
    ).json();
    expect((await pos.release(released.holdId, { operationId: opId('rel') })).statusCode).toBe(200);
    const refused = await pos.hold({ operationId: opId('over'), cardNumber: card.number, points: 10_000 });
    expect(refused.statusCode).toBe(409);
  }
}

async function expectDerivedEqualsRebuild(): Promise<void> {
  const { kept, rebuilt } = await snapshotAndRebuild(db);
  expect(rebuilt).toEqual(kept);
}

describe('migration 010 (derived data as one subsystem)', () => {
  it('takes over a database written before it: derived rows stay exact before and after', async () => {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    expect(rows.map((r) => r.name)).toContain('009-account-accruals-index');
    expect(rows.map((r) => r.name)).not.toContain('010-derived-subsystem');
    const pos = till(ctx, (await createPosKey(ctx)).apiKey);
    await createRuleset(db, { version: 1, percent: 10 });
    await posWrites(pos);
    const before = await derivedSnapshot(db);
    expect(before.operationCounts?.length).toBeGreaterThan(3);

    expect(await migrateToLatest(db)).toEqual(['010-derived-subsystem', ...BUILT_ON_010]);
    // What existed before keeps its rows (the later migrations add their own tables beside them).
    expect(await derivedSnapshot(db)).toMatchObject(before);
    await expectDerivedEqualsRebuild();

    // The new triggers carry on from the rows the old ones kept.
    await posWrites(pos);
    await expectDerivedEqualsRebuild();
    const { differences, holdsCapturedTwice, overReturnedLines } = await verifyLedger(db);
    expect({ differences, holdsCapturedTwice, overReturnedLines }).toEqual({
      differences: [],
      holdsCapturedTwice: [],
      overReturnedLines: [],
    });
  });
});
