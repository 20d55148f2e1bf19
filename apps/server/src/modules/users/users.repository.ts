import type { Role, User } from '@loyalty/contracts';
import { isUuid } from '@loyalty/contracts';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { fetchListPage, type ListOrder } from '../../lib/list-page';
import { listSource } from '../../lib/list-stream';
import { likeContains, toIso } from '../../lib/paging';

const publicColumns = ['id', 'username', 'email', 'full_name', 'role', 'created_at', 'last_login'] as const;

/** What the answers read: the public columns, typed from the generated schema (db/schema.gen.ts). */
type UserRow = Pick<Selectable<Database['users']>, (typeof publicColumns)[number]>;
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    fullName: row.full_name,
    role: row.role,
    createdAt: toIso(row.created_at) as string,
    lastLogin: toIso(row.last_login),
  };
}

export async function findUserById(db: Executor, id: string): Promise<User | undefined> {
  // A malformed id cannot match; checking here avoids a cast error from PostgreSQL.
  if (!isUuid(id)) return undefined;
  const row = await db.selectFrom('users').select(publicColumns).where('id', '=', id).executeTakeFirst();
  return row ? toUser(row) : undefined;
}

export async function findCredentialsByUsername(db: Executor, username: string) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'role', 'password_hash'])
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function usernameExists(db: Executor, username: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(
  trx: Tx,
  values: {
    username: string;
    passwordHash: string;
    email: string | null;
    fullName: string | null;
    role: Role;
  },
): Promise<User> {
  const row = await trx
    .insertInto('users')
    .values({
      username: values.username,
      password_hash: values.passwordHash,
      email: values.email,
      full_name: values.fullName,
      role: values.role,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toUser(row);
}

/** False when no row was deleted: a concurrent delete of the same user committed first. */
export async function deleteUser(trx: Tx, id: string): Promise<boolean> {
  const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Stamps the sign-in; false when the user is gone (deleted while the password was checked). */
export async function touchLastLogin(trx: Tx, id: string): Promise<boolean> {
  const result = await trx
    .updateTable('users')
    .set({ last_login: sql`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Locks every ADMIN row, so two concurrent deletions cannot remove the last two admins together. */
export async function lockAdminIds(trx: Tx): Promise<string[]> {
  const rows = await trx.selectFrom('users').select('id').where('role', '=', 'ADMIN').forUpdate().execute();
  return rows.map((r) => r.id);
}

export interface UserFilter {
  page: number;
  size: number;
  search?: string;
  role?: Role;
  sort?: {
    field: 'username' | 'fullName' | 'email' | 'role' | 'createdAt' | 'lastLogin';
    direction: 'asc' | 'desc';
  };
}

const sortColumns = {
  username: 'username',
  fullName: 'full_name',
  email: 'email',
  role: 'role',
  createdAt: 'created_at',
  lastLogin: 'last_login',
} as const;

/** The filtered users with their columns, and the order of the sort asked for: the list's pages and its export. */
function usersList(db: Db, filter: Omit<UserFilter, 'page' | 'size'>) {
  let query = db.selectFrom('users');
  if (filter.role) query = query.where('role', '=', filter.role);
  if (filter.search) {
    const pattern = likeContains(filter.search);
    query = query.where((eb) => eb.or([eb('username', 'ilike', pattern), eb('email', 'ilike', pattern)]));
  }
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  const order: ListOrder = {
    column: sortColumns[sort.field],
    direction: sort.direction,
    nulls: 'ends',
    tiebreak: { column: 'id', direction: 'asc' },
    nullable: nullableColumns.has(sort.field),
  };
  return { query, order };
}

const nullableColumns = new Set(['email', 'fullName', 'lastLogin']);

export async function listUsers(db: Db, filter: UserFilter): Promise<{ rows: User[]; total: number }> {
  const { query, order } = usersList(db, filter);
  const { rows, total } = await fetchListPage(
    { rows: query.select(publicColumns), count: query },
    order,
    filter,
  );
  return { rows: rows.map(toUser), total };
}

export function usersExportSource(db: Db, filter: Omit<UserFilter, 'page' | 'size'>) {
  const { query, order } = usersList(db, filter);
  return listSource(query.select(publicColumns), order, (rows) => rows.map(toUser));
}
