import { sql } from 'kysely';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { openTestDatabase } from './helper';
import { poolStats } from './pglite-pool';

// The reused engine must look exactly like a fresh copy of the template to the next file (PGlite tier only:
// on PostgreSQL every file gets its own database).
// Two of these tests boot an engine of their own: seconds quiet, tens of seconds at load 40 on two cores.
describe.skipIf(!inject('templateDataDir'))(
  "a worker's PGlite handed to the next file",
  { timeout: 180_000 },
  () => {
    const counts = async (database: Awaited<ReturnType<typeof openTestDatabase>>) => {
      const { rows } = await sql<{ users: number; audit: number; migrations: number }>`
      select (select count(*) from users)::int as users, (select count(*) from audit_log)::int as audit,
             (select count(*) from kysely_migration)::int as migrations`.execute(database.db);
      const [row] = rows;
      if (!row) throw new Error('no counts');
      return row;
    };

    // The worker's first database boots an engine (seconds under load): in the hook, out of the tests' time.
    beforeAll(async () => {
      await (await openTestDatabase()).close();
    });

    it('comes back with the template rows and sequences, whatever the last file wrote', async () => {
      const first = await openTestDatabase();
      const template = await counts(first);
      expect(template.users).toBe(0);
      expect(template.migrations).toBeGreaterThan(0);
      await sql`insert into users (username, password_hash, role) values ('pool-a', 'x', 'ADMIN')`.execute(
        first.db,
      );
      await sql`insert into events (type, data) values ('pool.test', '{}')`.execute(first.db);
      await sql`delete from kysely_migration`.execute(first.db);
      await first.close();

      const reuses = poolStats.reuses;
      const second = await openTestDatabase();
      expect(poolStats.reuses).toBe(reuses + 1);
      expect(await counts(second)).toEqual(template);
      // The identity sequence starts again, as in a fresh copy.
      const { rows } = await sql<{ id: number }>`
      insert into events (type, data) values ('pool.test', '{}') returning id`.execute(second.db);
      expect(rows[0]?.id).toBe(1);
      await second.close();
    });

    it('is thrown away, not reset, after a change of the schema', async () => {
      const first = await openTestDatabase();
      await sql`alter table users add column pool_test int`.execute(first.db);
      await first.close();

      const discarded = poolStats.discarded;
      const second = await openTestDatabase();
      expect(poolStats.discarded).toBe(discarded + 1);
      const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from information_schema.columns where column_name = 'pool_test'`.execute(
        second.db,
      );
      expect(rows[0]?.n).toBe(0);
      await second.close();
    });

    it('gives a second database opened inside one file an engine of its own', async () => {
      const first = await openTestDatabase();
      const second = await openTestDatabase();
      await sql`insert into users (username, password_hash, role) values ('pool-b', 'x', 'ADMIN')`.execute(
        first.db,
      );
      expect((await counts(second)).users).toBe(0);
      await second.close();
      await first.close();
    });
  },
);
