import type { Kysely } from 'kysely';
import { buildApp } from '../apps/server/src/app';
import { loadConfig } from '../apps/server/src/config';
import type { DatabaseHandle } from '../apps/server/src/db/connection';
import type { Database } from '../apps/server/src/db/schema';
import { usernameExists } from '../apps/server/src/modules/users/users.repository';
import { createUser } from '../apps/server/src/modules/users/users.service';

/**
 * The real app on a benchmark database (no sweepers, no console files) and the headers of a signed-in
 * ADMIN (`bench-admin`, created once per database), for benches that time requests through `inject`.
 */
export async function benchAdminApp(db: Kysely<Database>) {
  const database: DatabaseHandle = { db, kind: 'postgres', close: () => db.destroy() };
  // Both sweepers off: the expiry sweeper would otherwise start expiring the dataset's due lots a minute in,
  // writing in the middle of a read benchmark and spending the lots the expiry benchmark is meant to sweep.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    WEB_DIST: '/nonexistent',
    HOLD_SWEEP_INTERVAL_MS: '0',
    POINTS_EXPIRY_INTERVAL_MS: '0',
  });
  const app = await buildApp({
    config,
    database,
    secrets: { jwtSecret: 'bench-secret-that-is-long-enough-0123456789', posKeySecret: '0'.repeat(64) },
  });
  await app.ready();
  if (!(await usernameExists(db, 'bench-admin'))) {
    await createUser(db, null, {
      username: 'bench-admin',
      password: 'bench-password',
      email: null,
      fullName: null,
      role: 'ADMIN',
    });
  }
  const login = await app.inject({
    method: 'POST',
    url: '/auth/api/v1/login',
    payload: { username: 'bench-admin', password: 'bench-password' },
  });
  return { app, headers: { authorization: `Bearer ${login.json().token}` } };
}
