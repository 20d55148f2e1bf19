import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../../test/helper';
import { migrateToLatest } from '../migrate';

// A database as it was before migration 037: a Holds TTL of 0 stored, which the settings then accepted.
const ctx = await createTestContext({}, { skipMigrations: ['037-holds-ttl-zero'] });
const db = ctx.database.db;

describe('migration 037 (a stored Holds TTL of 0 becomes unset)', () => {
  it('the settings read no TTL (holds get the default 15 minutes); other settings stay', async () => {
    await sql`insert into settings (key, value) values ('holds.ttl_minutes', 0), ('cards.limit_per_account', 0)
      on conflict (key) do update set value = excluded.value`.execute(db);
    await migrateToLatest(db);
    const res = await ctx.app.inject({ url: '/api/v1/settings', headers: bearer(ctx.tokens.ADMIN) });
    expect(res.json()).toMatchObject({ holds: { ttl_minutes: null }, cards: { limit_per_account: 0 } });
  });
});
