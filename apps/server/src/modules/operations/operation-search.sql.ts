import type { OperationStatus, OperationType } from '@loyalty/contracts';
import { isUuid } from '@loyalty/contracts';
import { type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/connection';
import { likePrefix } from '../../lib/paging';

/**
 * The Operations search: a card-number prefix, an operation-id prefix, or an operation's exact UUID. Each
 * alternative has its own index (card_number, operation_id, the requested id: COLLATE "C" btrees; id: the
 * key), so the OR is a BitmapOr of index scans.
 */
export function searchCondition(search: string) {
  const prefix = likePrefix(search);
  return isUuid(search)
    ? sql<SqlBool>`(card_number like ${prefix} or operation_id like ${prefix} or ${requestedIdLike(prefix)} or id = ${search.toLowerCase()}::uuid)`
    : sql<SqlBool>`(card_number like ${prefix} or operation_id like ${prefix} or ${requestedIdLike(prefix)})`;
}

/**
 * A POS write refused before it took its operationId keeps the id the till sent in meta.operationId, its
 * operation_id null (pos-failures-hook.ts): the search finds it by that id too. Written as the partial index
 * operations_requested_id_idx (migration 040) states it, so the planner can use that index.
 */
function requestedIdLike(prefix: string) {
  return sql<SqlBool>`(operation_id is null and meta ? 'operationId' and (meta ->> 'operationId') collate "C" like ${prefix})`;
}

/** Searches up to this length are counted from operation_search_counts (db/DERIVED.md). */
export const SEARCH_COUNTER_MAX = 3;

/**
 * A short search matches a large share of all operations (one digit: a ninth of them), spread over the
 * whole table: its exact total comes from operation_search_counts — card numbers starting with it, plus
 * operation ids starting with it, minus the operations where both do — plus the failed writes found by the
 * id they asked for. Longer ones count through the indexes of the search's OR.
 */
export async function countShortSearch(
  db: Db,
  ch: string,
  type?: OperationType,
  status?: OperationStatus,
): Promise<number> {
  const prefix = likePrefix(ch);
  // The counters know card numbers and operation ids; the failed writes found by the id they asked for are
  // counted here through operations_requested_id_idx (few: 1.7 ms for one character with 50,000 of them,
  // against a 1M-operation table), less those their card number already counted.
  let requested = db
    .selectFrom('operations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(requestedIdLike(prefix))
    .where(sql<SqlBool>`not coalesce(card_number like ${prefix}, false)`);
  if (type) requested = requested.where('type', '=', type);
  if (status) requested = requested.where('status', '=', status);
  let query = db
    .selectFrom('operation_search_counts')
    .select(
      sql<number>`(coalesce(sum(case when kind = 'b' then -n else n end), 0) + (${requested}))::bigint`.as(
        'n',
      ),
    )
    .where('ch', '=', ch);
  if (type) query = query.where('type', '=', type);
  if (status) query = query.where('status', '=', status);
  return (await query.executeTakeFirstOrThrow()).n;
}
