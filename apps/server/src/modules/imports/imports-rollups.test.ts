import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { type AnalyticsSource, type BucketRange, rollupSource } from '../analytics/analytics.repository';
import { referenceSource } from '../analytics/analytics-reference.repository';
import { csv, importer } from './imports.fixtures';

// An import writes many rows per statement, and the statement-level triggers (migration 010, db/DERIVED.md)
// add their analytics once per statement: the dashboard's rollups must still equal the raw tables, as after
// any per-row write.
const ctx = await createTestContext();
const { db } = ctx.database;
const post = importer(ctx);

async function numbers(source: AnalyticsSource, range: BucketRange) {
  const byBucket = <T extends { bucket: Date }>(rows: T[]) =>
    rows
      .map((r) => ({ ...r, bucket: r.bucket.toISOString() }))
      .sort((a, b) => a.bucket.localeCompare(b.bucket));
  const { total, held } = await source.pointsTotals(db);
  return {
    operations: byBucket(await source.operations(db, range)).map((r) => ({ ...r, amount: Number(r.amount) })),
    cards: byBucket(await source.issuedCards(db, range)),
    active: byBucket(await source.activeAccounts(db, range)),
    total: Number(total),
    held: Number(held),
  };
}

async function expectRollupsMatchRaw() {
  const now = Date.now();
  for (const groupBy of ['hour', 'day'] as const) {
    const unit = groupBy === 'hour' ? 3_600_000 : 86_400_000;
    const start = new Date(Math.floor(now / unit) * unit - unit);
    const range = { groupBy, start, end: new Date(start.getTime() + 3 * unit) };
    expect(await numbers(rollupSource, range), groupBy).toEqual(await numbers(referenceSource, range));
  }
}

describe('analytics after imports', () => {
  it('members with cards and opening points, then bulk credits, count as their rows would', async () => {
    // An account active today before the import: the import must not count it as newly active again.
    const before = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { clientId: 'ROLL-0' },
    });
    await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/admin/operations/manual-accrual',
      headers: bearer(ctx.tokens.MANAGER),
      payload: { accountId: before.json().id, points: 3 },
    });
    const members = await post(
      'accounts',
      csv(
        'clientId,cardNumber,points',
        'ROLL-1,8000000000000001,10',
        'ROLL-2,,5.5',
        'ROLL-3,8000000000000003,',
      ),
    );
    expect(members.json()).toMatchObject({ created: 3, failed: 0 });
    await expectRollupsMatchRaw();

    const credits = await post(
      'accruals',
      csv('clientId,points', 'ROLL-0,1', 'ROLL-1,2', 'ROLL-1,3', 'ROLL-3,4', 'ROLL-0,5'),
    );
    expect(credits.json()).toMatchObject({ created: 5, failed: 0 });
    await expectRollupsMatchRaw();
  });
});
