import type { AuditEntry, AuditTargetType } from '@loyalty/contracts';
import { type Selectable, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Database } from '../../db/schema';
import { inTransaction, type Tx } from '../../db/transaction';
import { fetchListPage, type ListOrder } from '../../lib/list-page';
import { listSource } from '../../lib/list-stream';
import { likeContains, toIso } from '../../lib/paging';
import { timeOrderedUuid } from '../../lib/time-ordered-uuid';
import { redactSecrets } from './redact';

export interface AuditRecord {
  /** Who did it; null for actions without a signed-in user. */
  username: string | null;
  message: string;
  targetType: AuditTargetType;
  targetId?: string | null;
  source?: unknown;
  dest?: unknown;
}

/** Written inside the transaction of the mutation it describes, so both land or neither does. */
export async function insertAudit(trx: Tx, record: AuditRecord): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      // Entries of one transaction share its executedAt; the list breaks that tie by id, so a time-ordered id
      // keeps them in the order they were written (random ids listed a reissue's two entries either way).
      id: timeOrderedUuid(),
      username: record.username,
      message: record.message,
      target_type: record.targetType,
      target_id: record.targetId ?? null,
      source: record.source === undefined ? null : JSON.stringify(redactSecrets(record.source)),
      dest: record.dest === undefined ? null : JSON.stringify(redactSecrets(record.dest)),
    })
    .execute();
}

export interface AuditFilter {
  page: number;
  size: number;
  search?: string;
  username?: string;
  targetType?: AuditTargetType;
  targetId?: string;
  sort?: { field: 'executedAt' | 'username' | 'targetType'; direction: 'asc' | 'desc' };
}

const sortColumns = { executedAt: 'executed_at', username: 'username', targetType: 'target_type' } as const;

/** The filtered entries and the order of the sort asked for: the list's pages and its export. */
function auditList(db: Db, filter: Omit<AuditFilter, 'page' | 'size'>) {
  let query = db.selectFrom('audit_log');
  if (filter.username) query = query.where(sql`lower(username)`, '=', sql`lower(${filter.username})`);
  if (filter.targetType) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  if (filter.search) {
    const pattern = likeContains(filter.search);
    query = query.where((eb) => eb.or([eb('message', 'ilike', pattern), eb('username', 'ilike', pattern)]));
  }
  const sort = filter.sort ?? { field: 'executedAt', direction: 'desc' };
  const order: ListOrder = {
    column: sortColumns[sort.field],
    direction: sort.direction,
    nulls: 'database',
    tiebreak: { column: 'id', direction: sort.direction },
    nullable: sort.field === 'username',
  };
  return { query, order };
}

type AuditRow = Selectable<Database['audit_log']>;

function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    username: r.username,
    executedAt: toIso(r.executed_at) as string,
    message: r.message,
    targetType: r.target_type as AuditTargetType,
    targetId: r.target_id,
    source: r.source ?? null,
    dest: r.dest ?? null,
  };
}

/** Searches up to this many characters are counted from audit_search_counts (migration 042). */
const SEARCH_COUNTER_MAX = 2;

export async function listAudit(db: Db, filter: AuditFilter): Promise<{ rows: AuditEntry[]; total: number }> {
  const { query, order } = auditList(db, filter);
  // Unfiltered, by type, or a short search (by type or not), the exact total is in the counters
  // (migrations 036, 042), not a count of the log; trigrams cannot serve a search of one or two characters.
  const short = filter.search !== undefined && [...filter.search].length <= SEARCH_COUNTER_MAX;
  const counted = !filter.username && !filter.targetId && (!filter.search || short);
  const count = !counted
    ? query
    : filter.search
      ? () => countShortSearch(db, filter.search as string, filter.targetType)
      : () => countFromCounters(db, filter.targetType);
  // Counted first: with nothing (more) to find, the page query would walk the whole sort index looking for it.
  const { rows, total } = await fetchListPage({ rows: query.selectAll(), count }, order, filter, {
    countFirst: true,
  });
  return { total, rows: rows.map(toAuditEntry) };
}

/** Exact, from the counter rows of the texts of one or two characters (migration 042). */
async function countShortSearch(db: Db, text: string, targetType?: AuditTargetType): Promise<number> {
  // The database's lower(), as the triggers wrote the texts (JavaScript folds some letters otherwise).
  const byType = targetType ? sql`and target_type = ${targetType}` : sql``;
  const { rows } = await sql<{ n: number }>`
    select coalesce(sum(n), 0)::bigint as n from audit_search_counts where gram = lower(${text}) ${byType}
  `.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** Exact, from the counter rows the audit log's triggers keep (migration 036). */
async function countFromCounters(db: Db, targetType?: AuditTargetType): Promise<number> {
  let query = db.selectFrom('audit_counts').select(sql<number>`coalesce(sum(n), 0)::bigint`.as('n'));
  if (targetType) query = query.where('target_type', '=', targetType);
  return (await query.executeTakeFirstOrThrow()).n;
}

/** Recomputes the audit counters from the log (`npm run rebuild-derived`, after a load without triggers). */
export async function rebuildAuditCounts(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    await sql`lock table audit_log in share mode`.execute(trx);
    await sql`select derived_rebuild_audit_counts()`.execute(trx);
  });
}

export function auditExportSource(db: Db, filter: Omit<AuditFilter, 'page' | 'size'>) {
  const { query, order } = auditList(db, filter);
  return listSource(query.selectAll(), order, (rows) => rows.map(toAuditEntry));
}
