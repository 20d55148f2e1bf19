import type { Paged, Role, User } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import { hashPassword } from '../../lib/password';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { clearFailures } from '../auth/login-attempts.repository';
import {
  deleteUser,
  findUserById,
  insertUser,
  listUsers,
  lockAdminIds,
  type UserFilter,
  usernameExists,
  usersExportSource,
} from './users.repository';

export async function listUsersPage(db: Db, filter: UserFilter): Promise<Paged<User>> {
  const { rows, total } = await listUsers(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every row the filter matches, in the list's order (its CSV export). */
export function exportUsers(db: Db, filter: UserFilter): AsyncIterable<User> {
  return streamList(usersExportSource(db, filter), { snapshot: db });
}

interface NewUser {
  username: string;
  password: string;
  email: string | null;
  fullName: string | null;
  role: Role;
}

export async function createUser(db: Db, actor: AuthUser | null, input: NewUser): Promise<User> {
  // Hash before the transaction: it takes ~40 ms and must not hold the database.
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(db, async (trx) => {
      if (await usernameExists(trx, input.username)) throw usernameTaken(input.username);
      const user = await insertUser(trx, { ...input, passwordHash });
      await insertAudit(trx, {
        username: actor?.username ?? null,
        message: `Created user '${user.username}' with role ${user.role}`,
        targetType: 'user',
        targetId: user.id,
        source: null,
        dest: user,
      });
      return user;
    });
  } catch (error) {
    // Two concurrent creates of one name: the unique index decides; the loser gets the same 409.
    if (isUniqueViolation(error)) throw usernameTaken(input.username);
    throw error;
  }
}

function usernameTaken(username: string) {
  return new AppError('USERNAME_TAKEN', `Username '${username}' already exists`);
}

export async function removeUser(db: Db, actor: AuthUser, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = await findUserById(trx, id);
    if (!user) throw new AppError('USER_NOT_FOUND');
    if (user.id === actor.id) throw new AppError('CANNOT_DELETE_SELF');
    if (user.role === 'ADMIN') {
      const admins = await lockAdminIds(trx);
      if (admins.length <= 1) throw new AppError('LAST_ADMIN');
    }
    // The read above does not lock: two deletes of one user both pass it, and the DELETE decides. The one that
    // waited finds the row gone and answers 404 with no audit entry (each 204 wrote "Deleted user" before).
    if (!(await deleteUser(trx, id))) throw new AppError('USER_NOT_FOUND');
    await insertAudit(trx, {
      username: actor.username,
      message: `Deleted user '${user.username}'`,
      targetType: 'user',
      targetId: user.id,
      source: user,
      dest: null,
    });
  });
}

/**
 * Clears a user's failed sign-ins from every address, lifting the per-address blocks and the slow-down
 * at once (issue 15.7: an administrator can unlock a user). Audited with how many were cleared.
 */
export async function unlockUser(db: Db, actor: AuthUser, id: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = await findUserById(trx, id);
    if (!user) throw new AppError('USER_NOT_FOUND');
    const cleared = await clearFailures(trx, user.username);
    await insertAudit(trx, {
      username: actor.username,
      message: `Unlocked sign-in for '${user.username}' (${cleared} failed attempt${cleared === 1 ? '' : 's'} cleared)`,
      targetType: 'user',
      targetId: user.id,
    });
  });
}
