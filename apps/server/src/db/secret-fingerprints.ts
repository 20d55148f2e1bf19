import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { ConfigError } from '../config';
import type { Secrets } from '../lib/secrets';
import type { Db } from './connection';

const NAMES = { jwtSecret: 'JWT_SECRET', posKeySecret: 'POS_KEY_SECRET' } as const;

/** A secret's fingerprint: SHA-256 of the secret and its name; it tells secrets apart and gives nothing away. */
function fingerprint(name: string, secret: string): string {
  return createHash('sha256').update(`loyalty-secret:${name}:${secret}`).digest('hex');
}

/**
 * At start, after the migrations: records the fingerprints of this server's secrets if no server of the
 * database has (insert-if-absent, so servers starting together agree), and refuses to start with a
 * ConfigError naming the secret when they differ from the recorded ones (migration 030).
 */
export async function assertSharedSecrets(db: Db, secrets: Secrets): Promise<void> {
  for (const [key, name] of Object.entries(NAMES) as Array<[keyof Secrets, string]>) {
    const mine = fingerprint(name, secrets[key]);
    await sql`insert into secret_fingerprints (name, fingerprint) values (${name}, ${mine})
      on conflict (name) do nothing`.execute(db);
    const { rows } = await sql<{ fingerprint: string; recordedAt: Date }>`
      select fingerprint, recorded_at as "recordedAt" from secret_fingerprints where name = ${name}`.execute(
      db,
    );
    const recorded = rows[0]!;
    if (recorded.fingerprint !== mine) {
      throw new ConfigError(
        `${name} is not the one this database's servers use (recorded ${recorded.recordedAt.toISOString()}). ` +
          'Every server on one database needs the same JWT_SECRET and POS_KEY_SECRET (set them in the ' +
          'environment, or copy DATA_DIR/secrets.json). To change JWT_SECRET on purpose, stop every server, run ' +
          `"delete from secret_fingerprints where name = 'JWT_SECRET'" and start them with the new one; ` +
          'a new POS_KEY_SECRET cannot open the stored POS keys.',
      );
    }
  }
}
