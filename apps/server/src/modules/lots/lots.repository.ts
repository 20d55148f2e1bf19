import type { Lot, LotConsumption, LotStatus, OperationType } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Executor } from '../../db/executor';
import { amountNumber } from '../../lib/money';
import { toIso } from '../../lib/paging';

/**
 * Reads of points lots (the ledger writes them). A lot with points left is `open`; one with nothing left
 * is `expired` when an expiry took some of it, else `spent`.
 */
const statusOf = sql<LotStatus>`case
    when l.remaining > 0 then 'open'
    when exists (select 1 from lot_consumptions lc join operations e on e.id = lc.operation_id
      where lc.lot_id = l.id and e.type = 'expiry') then 'expired'
    else 'spent' end`;

interface LotRow {
  id: string;
  account_id: string;
  credit_id: string | null;
  earned_at: Date;
  available_at: Date;
  expires_at: Date | null;
  points: string;
  remaining: string;
  status: LotStatus;
  total: number;
}

export interface LotFilter {
  accountId: string;
  status?: LotStatus | undefined;
  page: number;
  size: number;
  sort?: { field: 'earnedAt'; direction: 'asc' | 'desc' } | undefined;
}

/** An account's lots, newest first (or oldest), optionally of one status; with the total of the filter. */
export async function listLots(db: Executor, filter: LotFilter): Promise<{ rows: Lot[]; total: number }> {
  const direction = sql.raw(filter.sort?.direction === 'asc' ? 'asc' : 'desc');
  const result = await sql<LotRow>`
    select s.*, count(*) over () as total from (
      select l.id, l.account_id, l.credit_id, l.earned_at, l.available_at, l.expires_at, l.points, l.remaining,
        ${statusOf} as status
      from lots l where l.account_id = ${filter.accountId}::uuid
    ) s
    ${filter.status ? sql`where s.status = ${filter.status}` : sql``}
    order by s.earned_at ${direction}, s.id ${direction}
    limit ${filter.size} offset ${filter.page * filter.size}`.execute(db);
  const rows = result.rows;
  return {
    total: rows.length > 0 ? Number(rows[0]!.total) : await countLots(db, filter),
    rows: rows.map(toLot),
  };
}

/** Every lot of an account, newest first, as the list shows them: a member's data export (§4). */
export async function lotsOfAccount(db: Executor, accountId: string): Promise<Lot[]> {
  const result = await sql<Omit<LotRow, 'total'>>`
    select l.id, l.account_id, l.credit_id, l.earned_at, l.available_at, l.expires_at, l.points, l.remaining,
      ${statusOf} as status
    from lots l where l.account_id = ${accountId}::uuid
    order by l.earned_at desc, l.id desc`.execute(db);
  return result.rows.map(toLot);
}

function toLot(r: Omit<LotRow, 'total'>): Lot {
  return {
    id: r.id,
    accountId: r.account_id,
    creditOperationId: r.credit_id,
    earnedAt: toIso(r.earned_at) as string,
    availableAt: toIso(r.available_at) as string,
    expiresAt: toIso(r.expires_at),
    points: amountNumber(r.points),
    remaining: amountNumber(r.remaining),
    status: r.status,
  };
}

async function countLots(db: Executor, filter: { accountId: string; status?: LotStatus }): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from (
      select ${statusOf} as status from lots l where l.account_id = ${filter.accountId}::uuid
    ) s ${filter.status ? sql`where s.status = ${filter.status}` : sql``}`.execute(db);
  return result.rows[0]!.n;
}

/** Whether the lot is one of the account's. */
export async function lotOfAccount(db: Executor, accountId: string, lotId: string): Promise<boolean> {
  const result =
    await sql`select 1 from lots where id = ${lotId}::uuid and account_id = ${accountId}::uuid`.execute(db);
  return result.rows.length > 0;
}

interface ConsumptionRow {
  operation_id: string;
  type: OperationType;
  pos_operation_id: string | null;
  points: string;
  at: Date;
  total: number;
}

/**
 * The debits that took from a lot, in the order they took (when booked), a page of them with their total.
 * `lot_consumptions_lot_idx` finds a lot's rows; a lot is taken from by a few debits, so the window count
 * and the sort are of those few.
 */
export async function listConsumptions(
  db: Executor,
  filter: { lotId: string; page: number; size: number },
): Promise<{ rows: LotConsumption[]; total: number }> {
  const result = await sql<ConsumptionRow>`
    select o.id as operation_id, o.type, o.operation_id as pos_operation_id, lc.points, o.created_at as at,
      count(*) over () as total
    from lot_consumptions lc join operations o on o.id = lc.operation_id
    where lc.lot_id = ${filter.lotId}::uuid
    order by o.created_at, o.id
    limit ${filter.size} offset ${filter.page * filter.size}`.execute(db);
  const rows = result.rows;
  return {
    // A page past the end has no row to carry the count.
    total: rows.length > 0 ? Number(rows[0]!.total) : await countConsumptions(db, filter.lotId),
    rows: rows.map((r) => ({
      operationId: r.operation_id,
      type: r.type,
      posOperationId: r.pos_operation_id,
      points: amountNumber(r.points),
      at: toIso(r.at) as string,
    })),
  };
}

async function countConsumptions(db: Executor, lotId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from lot_consumptions where lot_id = ${lotId}::uuid`.execute(db);
  return result.rows[0]!.n;
}

/**
 * Points left in lots expiring within 30, 60 and 90 days from now (overdue ones included). Days of 24 hours,
 * as lots are dated (`lots.sql.ts`): `interval '30 days'` is added on the session time zone's calendar, an
 * hour short or long across its DST change on a server whose time zone is not UTC.
 */
export async function expiryForecast(
  db: Executor,
  accountId: string,
): Promise<{ in30: string; in60: string; in90: string }> {
  const result = await sql<{ in30: string; in60: string; in90: string }>`
    select
      coalesce(sum(remaining) filter (where expires_at <= now() + interval '720 hours'), 0) as in30,
      coalesce(sum(remaining) filter (where expires_at <= now() + interval '1440 hours'), 0) as in60,
      coalesce(sum(remaining) filter (where expires_at <= now() + interval '2160 hours'), 0) as in90
    from lots where account_id = ${accountId}::uuid and remaining > 0 and expires_at is not null`.execute(db);
  return result.rows[0]!;
}
