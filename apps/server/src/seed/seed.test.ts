import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/helper';
import { seedProgramme } from './seed';

// A small demo programme through the real API, then checked for what makes it read like a retailer's month.
const ctx = await createTestContext();
const db = ctx.database.db;
const startedAt = Date.now();
const result = await seedProgramme(ctx.app, db, ctx.tokens.ADMIN, {
  accounts: 60,
  days: 5,
  purchasesPerDay: 25,
  seed: 7,
});
const DAY = 86_400_000;

describe('demo seed', () => {
  it('seeds once and refuses a database that has accounts', async () => {
    expect(result.seeded).toBe(true);
    const again = await seedProgramme(ctx.app, db, ctx.tokens.ADMIN, {
      accounts: 5,
      days: 1,
      purchasesPerDay: 1,
      seed: 1,
    });
    expect(again.seeded).toBe(false);
  });

  it('gives most accounts a balance and leaves some holds open', async () => {
    const { rows } = await sql<{ funded: number; total: number; held: string }>`
      select count(*) filter (where balance > 0)::int as funded, count(*)::int as total,
             coalesce(sum(held_balance), 0)::text as held
      from accounts`.execute(db);
    const row = rows[0]!;
    expect(row.funded / row.total).toBeGreaterThan(0.7);
    expect(Number(row.held)).toBeGreaterThan(0);
    const open = await sql<{ n: number }>`
      select count(*)::int as n from operations where type = 'hold' and status = 'active' and expires_at > now()`.execute(
      db,
    );
    expect(open.rows[0]!.n).toBeGreaterThanOrEqual(3);
  });

  it('dates operation ids and receipt numbers by the day the sale happened', async () => {
    const { rows } = await sql<{ operation_id: string; receipt_id: string; day: string }>`
      select o.operation_id, r.receipt_id, to_char(o.created_at at time zone 'UTC', 'YYYYMMDD') as day
      from receipts r join operations o on o.id = r.accrual_id`.execute(db);
    expect(rows.length).toBeGreaterThan(50);
    for (const row of rows) {
      expect(row.operation_id).toMatch(/^op-\d{8}-\d{6}$/);
      expect(row.operation_id.slice(3, 11)).toBe(row.day);
      expect(row.receipt_id).toBe(`R-${row.operation_id.slice(3)}`);
    }
  });

  it('dates each lot by its credit, so the lots read like the month they were earned in', async () => {
    const { rows } = await sql<{ lots: number; off: number }>`
      select count(*)::int as lots, count(*) filter (where l.earned_at <> o.created_at)::int as off
      from lots l join operations o on o.id = l.credit_id`.execute(db);
    expect(rows[0]!.lots).toBeGreaterThan(50);
    expect(rows[0]!.off).toBe(0);
  });

  it('spreads audit entries and POS keys over the story instead of the moment of seeding', async () => {
    const seededAt = new Date(startedAt - 60_000);
    const audit = await sql<{ before: number; total: number }>`
      select count(*) filter (where executed_at < ${seededAt})::int as before, count(*)::int as total
      from audit_log where username is not null and message not like 'Created user%'`.execute(db);
    const a = audit.rows[0]!;
    expect(a.total).toBeGreaterThan(100);
    expect(a.before / a.total).toBeGreaterThan(0.95);
    const keys = await sql<{ days: number; oldest: Date; used: number }>`
      select count(distinct date_trunc('day', created_at))::int as days, min(created_at) as oldest,
             count(last_used_at)::int as used
      from pos_keys`.execute(db);
    const k = keys.rows[0]!;
    expect(k.days).toBeGreaterThanOrEqual(4);
    expect(new Date(k.oldest).getTime()).toBeLessThan(startedAt - 100 * DAY);
    expect(k.used).toBeGreaterThanOrEqual(4);
    // No till rings up a sale before its key existed.
    const early = await sql<{ n: number }>`
      select count(*)::int as n from operations o join pos_keys k on k.id = o.pos_id
      where o.created_at < k.created_at`.execute(db);
    expect(early.rows[0]!.n).toBe(0);
  });
});
