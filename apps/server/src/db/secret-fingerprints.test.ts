import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../test/helper';
import { ConfigError } from '../config';
import { assertSharedSecrets } from './secret-fingerprints';

const ctx = await createTestContext();
const db = ctx.database.db;
const fleet = { jwtSecret: 'j'.repeat(48), posKeySecret: 'ab'.repeat(32) };

describe('the secrets every server of one database shares (migration 030)', () => {
  it('the first server records them; servers with the same ones start, together too', async () => {
    await Promise.all([assertSharedSecrets(db, fleet), assertSharedSecrets(db, fleet)]);
    await assertSharedSecrets(db, { ...fleet });
    const { rows } = await sql<{ name: string; fingerprint: string }>`
      select name, fingerprint from secret_fingerprints order by name`.execute(db);
    expect(rows.map((r) => r.name)).toEqual(['JWT_SECRET', 'POS_KEY_SECRET']);
    // Fingerprints, not the secrets.
    expect(JSON.stringify(rows)).not.toContain(fleet.posKeySecret);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.fingerprint))).toBe(true);
  });

  it('a server with another secret is refused, naming it; a JWT_SECRET changed on purpose is let in', async () => {
    const otherPos = assertSharedSecrets(db, { ...fleet, posKeySecret: 'cd'.repeat(32) });
    await expect(otherPos).rejects.toThrow(ConfigError);
    await expect(otherPos).rejects.toThrow(/^POS_KEY_SECRET is not the one/);
    const newJwt = { ...fleet, jwtSecret: 'k'.repeat(48) };
    await expect(assertSharedSecrets(db, newJwt)).rejects.toThrow(/^JWT_SECRET is not the one/);
    // The documented way to change it: every server stopped, its fingerprint forgotten, then the new one.
    await sql`delete from secret_fingerprints where name = 'JWT_SECRET'`.execute(db);
    await assertSharedSecrets(db, newJwt);
    await expect(assertSharedSecrets(db, fleet)).rejects.toThrow(/^JWT_SECRET/);
  });
});
