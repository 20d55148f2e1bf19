import type { Account } from '@loyalty/contracts';
import { type SelectQueryBuilder, sql } from 'kysely';
import { anyUuid } from '../../db/any-of';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { Database } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { listSource } from '../../lib/list-stream';
import { amountNumber, centsNumber, parseCents } from '../../lib/money';
import { likeContains, toIso } from '../../lib/paging';
import { availableCents } from '../ledger/available';
import { lapsedHeld } from '../ledger/expired-holds.repository';
import { pendingOf } from '../ledger/lots.sql';

/** The newest active card of the account (cards_account_idx), for the Active Card column. */
const activeCardNumber = sql<string | null>`(select c.number from cards c
  where c.account_id = accounts.id and c.status = 'active'
  order by c.created_at desc, c.id desc limit 1)`;

function accountQuery(db: Executor) {
  return db.selectFrom('accounts').select([
    'accounts.id',
    'accounts.client_id',
    'accounts.balance',
    // Lapsed holds no longer count as held, swept or not (issue 15.5).
    sql<string>`accounts.held_balance - ${lapsedHeld(sql.ref('accounts.id'))}`.as('held_balance'),
    pendingOf(sql.ref('accounts.id')).as('pending_balance'),
    'accounts.created_at',
    activeCardNumber.as('active_card_number'),
  ]);
}

type AccountRow = Awaited<ReturnType<ReturnType<typeof accountQuery>['executeTakeFirstOrThrow']>>;

function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    clientId: row.client_id,
    activeCardNumber: row.active_card_number,
    balance: amountNumber(row.balance),
    heldBalance: amountNumber(row.held_balance),
    pendingBalance: amountNumber(row.pending_balance),
    availableBalance: centsNumber(
      availableCents({
        balance: parseCents(row.balance),
        held: parseCents(row.held_balance),
        pending: parseCents(row.pending_balance),
      }),
    ),
    createdAt: toIso(row.created_at) as string,
  };
}

export async function findAccountById(db: Executor, id: string): Promise<Account | undefined> {
  const row = await accountQuery(db).where('accounts.id', '=', id).executeTakeFirst();
  return row ? toAccount(row) : undefined;
}

/** Locks the account row: card issues and balance changes of one account queue here, one at a time. */
export async function lockAccount(
  trx: Tx,
  id: string,
): Promise<{ id: string; client_id: string; balance: string } | undefined> {
  return trx
    .selectFrom('accounts')
    .select(['id', 'client_id', 'balance'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** undefined when the client ID (in any case) is taken. */
export async function insertAccount(trx: Tx, clientId: string): Promise<Account | undefined> {
  const row = await trx
    .insertInto('accounts')
    .values({ client_id: clientId })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row ? findAccountById(trx, row.id) : undefined;
}

export interface AccountFilter {
  page: number;
  size: number;
  search?: string;
  sort?: { field: 'createdAt' | 'clientId' | 'balance'; direction: 'asc' | 'desc' };
  /** Client lookup: only these accounts. */
  ids?: string[];
}

export async function listAccounts(
  db: Db,
  filter: AccountFilter,
): Promise<{ rows: Account[]; total: number }> {
  if (filter.ids?.length === 0) return { rows: [], total: 0 };
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  let base = db.selectFrom('accounts');
  if (filter.ids) base = base.where('accounts.id', '=', anyUuid(filter.ids));
  if (filter.search) base = base.where('accounts.client_id', 'ilike', likeContains(filter.search));

  // Pick the page's ids from the sort index alone (a deep page skips index entries, not rows), then load
  // those rows with their active card and order them the same way.
  const pageIds = orderAccounts(base.select('accounts.id'), sort)
    .limit(filter.size)
    .offset(filter.page * filter.size);
  const total = await (filter.ids || (filter.search && filter.search.length > 2)
    ? base
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => r.n)
    : filter.search
      ? countShortSearch(db, filter.search)
      : countAllAccounts(db));
  // With nothing to find, the page query would walk the whole sort index looking for it.
  const rows =
    total === 0
      ? []
      : await orderAccounts(accountQuery(db).where('accounts.id', 'in', pageIds), sort).execute();
  return { rows: rows.map(toAccount), total };
}

function orderAccounts<O>(
  query: SelectQueryBuilder<Database, 'accounts', O>,
  sort: NonNullable<AccountFilter['sort']>,
): SelectQueryBuilder<Database, 'accounts', O> {
  const dir = sort.direction;
  if (sort.field === 'createdAt')
    return query.orderBy('accounts.created_at', dir).orderBy('accounts.id', dir);
  if (sort.field === 'balance') return query.orderBy('accounts.balance', dir).orderBy('accounts.id', dir);
  // client_id is unique: no tie-break, so the unique index serves the order.
  return query.orderBy('accounts.client_id', dir);
}

/** Every account the filter matches with the list's columns, in its order: the list's export. */
export function accountsExportSource(db: Db, filter: Pick<AccountFilter, 'search' | 'sort'>) {
  let query = accountQuery(db);
  if (filter.search) query = query.where('accounts.client_id', 'ilike', likeContains(filter.search));
  const sort = filter.sort ?? { field: 'createdAt', direction: 'desc' };
  const direction = sort.direction;
  // The pages' order (orderAccounts); client_id is unique, so its tie-break never decides.
  const column = {
    createdAt: 'accounts.created_at',
    balance: 'accounts.balance',
    clientId: 'accounts.client_id',
  };
  return listSource(
    query,
    {
      column: column[sort.field],
      direction,
      nulls: 'database',
      tiebreak: { column: 'accounts.id', direction },
    },
    (rows) => rows.map(toAccount),
  );
}

/**
 * Trigrams cannot serve a search of one or two characters: its exact total comes from
 * account_search_counts (accounts whose client ID contains that text, in any case).
 */
async function countShortSearch(db: Db, text: string): Promise<number> {
  const row = await db
    .selectFrom('account_search_counts')
    .select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'))
    // The database's lower(), as the accounts triggers wrote the grams (JavaScript folds 'İ' otherwise).
    .where('gram', '=', sql<string>`lower(${text})`)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Exact, from the counter rows the accounts triggers keep (db/DERIVED.md). */
async function countAllAccounts(db: Db): Promise<number> {
  const row = await db
    .selectFrom('account_counts')
    .select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The accounts of `ids` as the API shows them, in one query (an import's account.created events). */
export async function findAccountsByIds(db: Executor, ids: readonly string[]): Promise<Account[]> {
  if (ids.length === 0) return [];
  const rows = await accountQuery(db).where('accounts.id', '=', anyUuid(ids)).execute();
  return rows.map(toAccount);
}
