import type { PosKey, PosKeyStatus } from '@loyalty/contracts';
import { isUuid } from '@loyalty/contracts';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { fetchListPage, type ListOrder } from '../../lib/list-page';
import { listSource } from '../../lib/list-stream';
import { likeContains, toIso } from '../../lib/paging';

const publicColumns = ['id', 'name', 'address', 'status', 'created_at', 'last_used_at'] as const;

/** What the answers read: the public columns, typed from the generated schema (db/schema.gen.ts). */
type PosKeyRow = Pick<Selectable<Database['pos_keys']>, (typeof publicColumns)[number]>;
export function toPosKey(row: PosKeyRow): PosKey {
  return {
    id: row.id,
    name: row.name,
    address: row.address,
    status: row.status,
    createdAt: toIso(row.created_at) as string,
    lastUsedAt: toIso(row.last_used_at),
  };
}

export async function findPosKey(db: Executor, id: string, lock = false): Promise<PosKey | undefined> {
  if (!isUuid(id)) return undefined;
  let query = db.selectFrom('pos_keys').select(publicColumns).where('id', '=', id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row ? toPosKey(row) : undefined;
}

export async function findPosKeyCipher(db: Executor, id: string) {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('pos_keys')
    .select([...publicColumns, 'key_cipher'])
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertPosKey(
  trx: Tx,
  values: {
    id: string;
    name: string;
    address: string | null;
    keyHash: string;
    keyCipher: string;
    status: PosKeyStatus;
  },
): Promise<PosKey> {
  const row = await trx
    .insertInto('pos_keys')
    .values({
      id: values.id,
      name: values.name,
      address: values.address,
      key_hash: values.keyHash,
      key_cipher: values.keyCipher,
      status: values.status,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toPosKey(row);
}

export async function keyHashExists(db: Executor, keyHash: string): Promise<boolean> {
  const row = await db.selectFrom('pos_keys').select('id').where('key_hash', '=', keyHash).executeTakeFirst();
  return row !== undefined;
}

export async function updatePosKeyStatus(trx: Tx, id: string, status: PosKeyStatus): Promise<PosKey> {
  const row = await trx
    .updateTable('pos_keys')
    .set({ status })
    .where('id', '=', id)
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toPosKey(row);
}

/**
 * The till's identity for one request. `stale` says lastUsedAt is older than the throttle, so only then
 * is it written: a busy till does not turn its key row into a hot row.
 */
export interface PosIdentity {
  id: string;
  name: string;
  stale: boolean;
}

export async function findActivePosByHash(db: Db, keyHash: string): Promise<PosIdentity | undefined> {
  const row = await sql<{ id: string; name: string; stale: boolean }>`
    select id, name,
      (last_used_at is null or last_used_at < now() - interval '5 seconds') as stale
    from pos_keys where key_hash = ${keyHash} and status = 'active'`.execute(db);
  return row.rows[0];
}

export async function touchPosKey(db: Db, id: string): Promise<void> {
  await sql`
    update pos_keys set last_used_at = now()
    where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 second')`.execute(db);
}

export interface PosKeyFilter {
  page: number;
  size: number;
  search?: string;
  status?: PosKeyStatus;
  sort?: {
    field: 'name' | 'address' | 'status' | 'createdAt' | 'lastUsedAt';
    direction: 'asc' | 'desc';
  };
}

const sortColumns = {
  name: 'name',
  address: 'address',
  status: 'status',
  createdAt: 'created_at',
  lastUsedAt: 'last_used_at',
} as const;

/** The filtered keys and the order of the sort asked for: the list's pages and its export. */
function posKeysList(db: Db, filter: Omit<PosKeyFilter, 'page' | 'size'>) {
  let query = db.selectFrom('pos_keys');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.search) {
    const pattern = likeContains(filter.search);
    query = query.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('address', 'ilike', pattern)]));
  }
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  const order: ListOrder = {
    column: sortColumns[sort.field],
    direction: sort.direction,
    nulls: 'ends',
    tiebreak: { column: 'id', direction: 'asc' },
    nullable: sort.field === 'address' || sort.field === 'lastUsedAt',
  };
  return { query, order };
}

export async function listPosKeys(db: Db, filter: PosKeyFilter): Promise<{ rows: PosKey[]; total: number }> {
  const { query, order } = posKeysList(db, filter);
  const { rows, total } = await fetchListPage(
    { rows: query.select(publicColumns), count: query },
    order,
    filter,
  );
  return { rows: rows.map(toPosKey), total };
}

export function posKeysExportSource(db: Db, filter: Omit<PosKeyFilter, 'page' | 'size'>) {
  const { query, order } = posKeysList(db, filter);
  return listSource(query.select(publicColumns), order, (rows) => rows.map(toPosKey));
}
