import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import type { Db } from './db/connection';
import { countUsers } from './modules/users/users.repository';
import { createUser } from './modules/users/users.service';

/**
 * First start with no users: create the ADMIN from ADMIN_USERNAME / ADMIN_PASSWORD. A generated password
 * is returned so the caller prints it once; it is not stored anywhere in clear.
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
): Promise<{ username: string; password?: string } | null> {
  if ((await countUsers(db)) > 0) return null;
  const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  await createUser(db, null, {
    username: config.ADMIN_USERNAME,
    password,
    email: null,
    fullName: 'Administrator',
    role: 'ADMIN',
  });
  return { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD ? undefined : password };
}
