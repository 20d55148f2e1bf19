import type { ExcludedSku } from '@loyalty/contracts';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';
import { fetchListPage, type ListOrder } from '../../lib/list-page';
import { listSource } from '../../lib/list-stream';
import { likeContains } from '../../lib/paging';
import { toExcludedSku } from './rulesets.repository';

const columns = ['sku', 'description', 'category', 'created_at'] as const;

/** The same expression as excluded_skus_search_trgm_idx, so a search uses that index. */
const searchText = sql<string>`(sku || ' ' || coalesce(description, '') || ' ' || coalesce(category, ''))`;

export interface ExcludedSkuFilter {
  page: number;
  size: number;
  search?: string;
  /** undefined: all; '': only SKUs without a category; otherwise that category. */
  category?: string;
  sort?: { field: 'sku' | 'description' | 'category' | 'createdAt'; direction: 'asc' | 'desc' };
}

const sortColumns = {
  sku: 'sku',
  description: 'description',
  category: 'category',
  createdAt: 'created_at',
} as const;

/** The ruleset's filtered SKUs and the order of the sort asked for: the list's pages and its export. */
function excludedSkusList(db: Db, rulesetId: string, filter: Omit<ExcludedSkuFilter, 'page' | 'size'>) {
  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`ruleset_id = ${rulesetId}`];
  if (filter.category === '') conditions.push(sql<SqlBool>`category is null`);
  else if (filter.category !== undefined) conditions.push(sql<SqlBool>`category = ${filter.category}`);
  if (filter.search) conditions.push(sql<SqlBool>`${searchText} ilike ${likeContains(filter.search)}`);
  const sort = filter.sort ?? { field: 'sku', direction: 'asc' };
  const order: ListOrder = {
    column: sortColumns[sort.field],
    direction: sort.direction,
    nulls: 'ends',
    // A SKU is unique in its ruleset.
    tiebreak: { column: 'sku', direction: 'asc' },
    nullable: sort.field === 'description' || sort.field === 'category',
  };
  return { query: db.selectFrom('excluded_skus').where((eb) => eb.and(conditions)), order };
}

export async function listExcludedSkus(
  db: Db,
  rulesetId: string,
  filter: ExcludedSkuFilter,
): Promise<{ rows: ExcludedSku[]; total: number }> {
  const { query, order } = excludedSkusList(db, rulesetId, filter);
  const { rows, total } = await fetchListPage({ rows: query.select(columns), count: query }, order, filter);
  return { rows: rows.map(toExcludedSku), total };
}

export function excludedSkusExportSource(
  db: Db,
  rulesetId: string,
  filter: Omit<ExcludedSkuFilter, 'page' | 'size'>,
) {
  const { query, order } = excludedSkusList(db, rulesetId, filter);
  return listSource(query.select(columns), order, (rows) => rows.map(toExcludedSku));
}

export async function listSkuCategories(db: Db, rulesetId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('excluded_skus')
    .select('category')
    .distinct()
    .where('ruleset_id', '=', rulesetId)
    .where('category', 'is not', null)
    .orderBy('category')
    .execute();
  return rows.map((r) => r.category as string);
}

/** undefined when the SKU is already excluded in this ruleset. */
export async function insertExcludedSku(
  trx: Tx,
  rulesetId: string,
  values: { sku: string; description: string | null; category: string | null },
): Promise<ExcludedSku | undefined> {
  const row = await trx
    .insertInto('excluded_skus')
    .values({ ruleset_id: rulesetId, ...values })
    .onConflict((oc) => oc.columns(['ruleset_id', 'sku']).doNothing())
    .returning(columns)
    .executeTakeFirst();
  return row ? toExcludedSku(row) : undefined;
}

/** The removed row, or undefined when the SKU was not excluded. */
export async function deleteExcludedSku(
  trx: Tx,
  rulesetId: string,
  sku: string,
): Promise<ExcludedSku | undefined> {
  const row = await trx
    .deleteFrom('excluded_skus')
    .where('ruleset_id', '=', rulesetId)
    .where('sku', '=', sku)
    .returning(columns)
    .executeTakeFirst();
  return row ? toExcludedSku(row) : undefined;
}
