import { randomBytes } from 'node:crypto';
import type { Config } from './config';
import type { Db } from './db/connection';
import { lockUsersTableForBootstrap } from './db/locks';
import { inTransaction } from './db/transaction';
import { hashPassword } from './lib/password';
import { insertAudit } from './modules/audit/audit.repository';
import { countUsers, insertUser } from './modules/users/users.repository';

/**
 * First start with no users: create the ADMIN from ADMIN_USERNAME / ADMIN_PASSWORD. A generated password
 * is returned so the caller prints it once; it is not stored anywhere in clear.
 *
 * Insert-if-absent under a table lock: when several servers start together on a fresh database exactly
 * one creates the administrator and the others find a user and carry on (they used to crash on
 * USERNAME_TAKEN, or could each create an admin when their ADMIN_USERNAME differed).
 */
export async function ensureFirstAdmin(
  db: Db,
  config: Config,
): Promise<{ username: string; password?: string } | null> {
  if ((await countUsers(db)) > 0) return null;
  const password = config.ADMIN_PASSWORD ?? randomBytes(12).toString('base64url');
  // Hashing takes ~40 ms; done before the lock so the lock is held for two statements only.
  const passwordHash = await hashPassword(password);
  const created = await inTransaction(db, async (trx) => {
    await lockUsersTableForBootstrap(trx);
    if ((await countUsers(trx)) > 0) return false;
    const user = await insertUser(trx, {
      username: config.ADMIN_USERNAME,
      passwordHash,
      email: null,
      fullName: 'Administrator',
      role: 'ADMIN',
    });
    await insertAudit(trx, {
      username: null,
      message: `Created user '${user.username}' with role ${user.role}`,
      targetType: 'user',
      targetId: user.id,
      source: null,
      dest: user,
    });
    return true;
  });
  if (!created) return null;
  return { username: config.ADMIN_USERNAME, password: config.ADMIN_PASSWORD ? undefined : password };
}
