import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { migrateToLatest } from '../migrate';

// A database as it was before migration 032: bulk credit files' keys kept per user beside manual accrual's
// (and without 045 and 048, which add columns to 032's table).
const ctx = await createTestContext(
  {},
  {
    skipMigrations: ['032-bulk-credit-keys', '045-bulk-credit-row-fingerprints', '048-keyed-request-digests'],
  },
);
const db = ctx.database.db;

describe('migration 032 (bulk credit keys are the programme’s)', () => {
  it("moves every import's key with its answer, the first use where two users shared one; manual accrual's stay", async () => {
    const report = (created: number) =>
      JSON.stringify({ dryRun: false, rows: 1, created, unchanged: 0, failed: 0 });
    await sql`insert into idempotency_keys (user_id, key, request_hash, status_code, response, created_at) values
      (${ctx.users.MANAGER}::uuid, 'file-a', 'h1', 200, ${report(1)}::jsonb, '2026-11-01T10:00:00Z'),
      (${ctx.users.ADMIN}::uuid, 'file-a', 'h2', 200, ${report(2)}::jsonb, '2026-11-02T10:00:00Z'),
      (${ctx.users.ADMIN}::uuid, 'manual-1', 'h3', 201, '{"operation": {"id": "x"}}'::jsonb, '2026-11-03T10:00:00Z')`.execute(
      db,
    );
    await migrateToLatest(db);
    const moved = await sql<{ key: string; request_hash: string; response: { created: number } }>`
      select key, request_hash, response from bulk_credit_keys`.execute(db);
    expect(moved.rows).toEqual([{ key: 'file-a', request_hash: 'h1', response: JSON.parse(report(1)) }]);
    const kept = await sql<{ key: string }>`select key from idempotency_keys`.execute(db);
    expect(kept.rows).toEqual([{ key: 'manual-1' }]);
  });
});
