import type { Card, CardStatus } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { likePrefix, toIso } from '../../lib/paging';
import { isUuid } from '../../lib/uuid';

const columns = [
  'id',
  'number',
  'account_id',
  'status',
  'issued_at',
  'created_at',
  'blocked_at',
  'blocked_reason',
  'replaced_by',
] as const;

interface CardRow {
  id: string;
  number: string;
  account_id: string;
  status: CardStatus;
  issued_at: Date | null;
  created_at: Date;
  blocked_at: Date | null;
  blocked_reason: string | null;
  replaced_by: string | null;
}

export function toCard(row: CardRow): Card {
  return {
    id: row.id,
    number: row.number,
    accountId: row.account_id,
    status: row.status,
    issuedAt: toIso(row.issued_at),
    createdAt: toIso(row.created_at) as string,
    blockedAt: toIso(row.blocked_at),
    blockedReason: row.blocked_reason,
    replacedBy: row.replaced_by,
  };
}

export async function findCardById(db: Executor, id: string): Promise<Card | undefined> {
  const row = await db.selectFrom('cards').select(columns).where('id', '=', id).executeTakeFirst();
  return row ? toCard(row) : undefined;
}

export async function lockCard(trx: Tx, id: string): Promise<Card | undefined> {
  const row = await trx
    .selectFrom('cards')
    .select(columns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  return row ? toCard(row) : undefined;
}

/**
 * Locks several cards in id order: two bulk calls over overlapping cards then wait for each other
 * instead of deadlocking. All locks are taken before any update (an update also touches the shared
 * counter rows, which a single block holding one of these cards would need).
 */
export async function lockCards(trx: Tx, ids: readonly string[]): Promise<Card[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('cards')
    .select(columns)
    .where('id', 'in', [...ids])
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toCard);
}

/** Active and pending cards: what the per-account limit counts. */
export async function countNonBlockedCards(trx: Tx, accountId: string): Promise<number> {
  const row = await trx
    .selectFrom('cards')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', '<>', 'blocked')
    .executeTakeFirstOrThrow();
  return row.n;
}

/** undefined when the number already exists (the caller draws another). */
export async function insertActiveCard(
  trx: Tx,
  accountId: string,
  number: string,
): Promise<Card | undefined> {
  const row = await trx
    .insertInto('cards')
    .values({ number, account_id: accountId, status: 'active', issued_at: sql`now()` })
    .onConflict((oc) => oc.column('number').doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row ? toCard(row) : undefined;
}

export async function updateCard(
  trx: Tx,
  id: string,
  values: { block?: { reason: string }; replacedBy?: string },
): Promise<Card> {
  const row = await trx
    .updateTable('cards')
    .set({
      ...(values.block
        ? { status: 'blocked' as const, blocked_at: sql`now()`, blocked_reason: values.block.reason }
        : {}),
      ...(values.replacedBy ? { replaced_by: values.replacedBy } : {}),
    })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
  return toCard(row);
}

export interface CardFilter {
  page: number;
  size: number;
  /** A card-number prefix, or an exact account id when it is a UUID. */
  search?: string;
  status?: CardStatus;
  accountId?: string;
  sort?: { field: 'createdAt' | 'number'; direction: 'asc' | 'desc' };
  /** Client lookup: cards of these accounts only. */
  accountIds?: string[];
}

export async function listCards(db: Db, filter: CardFilter): Promise<{ rows: Card[]; total: number }> {
  if (filter.accountIds?.length === 0) return { rows: [], total: 0 };
  let query = db.selectFrom('cards');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
  if (filter.accountIds) query = query.where('account_id', 'in', filter.accountIds);
  if (filter.search) {
    query = isUuid(filter.search)
      ? query.where('account_id', '=', filter.search.toLowerCase())
      : query.where('number', 'like', likePrefix(filter.search));
  }
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  const ordered =
    sort.field === 'number'
      ? query.orderBy('number', sort.direction)
      : query.orderBy('created_at', sort.direction).orderBy('id', sort.direction);
  const onlyByStatus = !filter.accountId && !filter.accountIds && !filter.search;
  const [rows, total] = await Promise.all([
    ordered
      .select(columns)
      .limit(filter.size)
      .offset(filter.page * filter.size)
      .execute(),
    onlyByStatus
      ? countCardsByStatus(db, filter.status)
      : query
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
          .then((r) => r.n),
  ]);
  return { rows: rows.map(toCard), total };
}

/** Exact, from the counter rows the cards triggers keep (migration 002). */
async function countCardsByStatus(db: Db, status?: CardStatus): Promise<number> {
  let query = db.selectFrom('card_counts').select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'));
  if (status) query = query.where('status', '=', status);
  return (await query.executeTakeFirstOrThrow()).n;
}
