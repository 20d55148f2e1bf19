import type { Card, CardListItem, CardStatus } from '@loyalty/contracts';
import { isUuid } from '@loyalty/contracts';
import { type Expression, type Selectable, type SqlBool, sql } from 'kysely';
import { anyText, anyUuid } from '../../db/any-of';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { listSource } from '../../lib/list-stream';
import { likePrefix, toIso } from '../../lib/paging';
import { accountByClientId } from '../clients/clients.repository';

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

type CardRow = Pick<Selectable<Database['cards']>, (typeof columns)[number]>;

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
    .where('id', '=', anyUuid(ids))
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(toCard);
}

/** Every card of an account, newest first (a member's data export). */
export async function findCardsOfAccount(db: Executor, accountId: string): Promise<Card[]> {
  const rows = await db
    .selectFrom('cards')
    .select(columns)
    .where('account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
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
  /** A card-number prefix or a client ID (exact, any case); an exact account id when it is a UUID. */
  search?: string;
  status?: CardStatus;
  accountId?: string;
  sort?: { field: 'createdAt' | 'number'; direction: 'asc' | 'desc' };
  /** Client lookup: cards of these accounts only. */
  accountIds?: string[];
}

/**
 * The cards a search names. A client ID is resolved to its account first (one probe of
 * accounts_client_id_lower_key), so the cards query is an OR of two index ranges — the number prefix and
 * the account's cards — that the planner combines with a bitmap instead of walking the sort index.
 */
async function searchCondition(db: Db, search: string): Promise<Expression<SqlBool>> {
  if (isUuid(search)) return sql<SqlBool>`account_id = ${search.toLowerCase()}::uuid`;
  const [account] = (await accountByClientId(search).execute(db)).rows;
  // Card numbers are digits only: other text can only be a client ID.
  const byNumber = /^\d+$/.test(search) ? sql<SqlBool>`number like ${likePrefix(search)}` : null;
  const byClient = account ? sql<SqlBool>`account_id = ${account.id}::uuid` : null;
  if (byNumber && byClient) return sql<SqlBool>`(${byNumber} or ${byClient})`;
  return byNumber ?? byClient ?? sql<SqlBool>`false`;
}

export async function listCards(
  db: Db,
  filter: CardFilter,
): Promise<{ rows: CardListItem[]; total: number }> {
  if (filter.accountIds?.length === 0) return { rows: [], total: 0 };
  let query = db.selectFrom('cards');
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
  if (filter.accountIds) query = query.where('account_id', '=', anyUuid(filter.accountIds));
  if (filter.search) query = query.where(await searchCondition(db, filter.search));
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
  const clientIds = await clientIdsOf(db, rows);
  return {
    rows: rows.map((row) => ({ ...toCard(row), clientId: clientIds.get(row.account_id) ?? '' })),
    total,
  };
}

/** Every card the filter matches with its client ID, in the list's order: the list's export. */
export async function cardsExportSource(
  db: Db,
  filter: Pick<CardFilter, 'search' | 'status' | 'accountId' | 'sort'>,
) {
  let query = db.selectFrom('cards').select(columns);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.accountId) query = query.where('account_id', '=', filter.accountId);
  if (filter.search) query = query.where(await searchCondition(db, filter.search));
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  const { direction } = sort;
  // The pages' order; a number is unique, so its tie-break never decides.
  return listSource(
    query,
    {
      column: sort.field === 'number' ? 'number' : 'created_at',
      direction,
      nulls: 'database',
      tiebreak: { column: 'id', direction },
    },
    async (rows) => {
      const clientIds = await clientIdsOf(db, rows);
      return rows.map((row) => ({ ...toCard(row), clientId: clientIds.get(row.account_id) ?? '' }));
    },
  );
}

/** The client IDs of a page's accounts: one primary-key probe per distinct account. */
async function clientIdsOf(db: Db, rows: readonly { account_id: string }[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.map((row) => row.account_id))];
  if (ids.length === 0) return new Map();
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'client_id'])
    .where('id', '=', anyUuid(ids))
    .execute();
  return new Map(accounts.map((a) => [a.id, a.client_id]));
}

/** Exact, from the counter rows the cards triggers keep (db/DERIVED.md). */
async function countCardsByStatus(db: Db, status?: CardStatus): Promise<number> {
  let query = db.selectFrom('card_counts').select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'));
  if (status) query = query.where('status', '=', status);
  return (await query.executeTakeFirstOrThrow()).n;
}

/** The cards of `numbers`, in one query (an import's card.issued events). */
export async function findCardsByNumbers(db: Executor, numbers: readonly string[]): Promise<Card[]> {
  if (numbers.length === 0) return [];
  const rows = await db.selectFrom('cards').select(columns).where('number', '=', anyText(numbers)).execute();
  return rows.map(toCard);
}
