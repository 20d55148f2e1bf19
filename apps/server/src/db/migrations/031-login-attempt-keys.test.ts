import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../../test/helper';
import { attemptKey } from '../../modules/auth/login-attempts.repository';
import { migrateToLatest } from '../migrate';

// A database as it was before migration 031: sign-in attempts kept under their usernames' text.
const ctx = await createTestContext({}, { skipMigrations: ['031-login-attempt-keys'] });
const db = ctx.database.db;

describe('migration 031 (sign-in attempts under a hash of the username)', () => {
  it("keeps every attempt counting under its username's key, and no username text", async () => {
    await sql`insert into login_attempts (username, address, succeeded)
      values ('kiosk', '203.0.113.5', false), ('Typed-My-Password!', '203.0.113.5', false)`.execute(db);
    await migrateToLatest(db);
    const { rows } = await sql<
      Record<string, unknown>
    >`select * from login_attempts order by attempted_at`.execute(db);
    expect(rows.map((r) => r.username_key).sort()).toEqual(
      [attemptKey('kiosk'), attemptKey('Typed-My-Password!')].sort(),
    );
    expect(rows.every((r) => !('username' in r))).toBe(true);
    expect(JSON.stringify(rows)).not.toMatch(/kiosk|Typed-My-Password/i);
  });
});
