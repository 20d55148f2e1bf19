import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import type { StoredRequest } from '../pos/idempotency';
import { insertClaim, type PosClaim } from './ledger.repository';
import { consumeLots, pendingOf } from './lots.sql';

export interface ReturnableAccrual {
  id: string;
  account_id: string;
  card_id: string | null;
  card_number: string | null;
  receipt_id: string;
}

/** The accrual being returned: completed, with a receipt, and made by this POS. */
export async function findAccrualForReturn(trx: Tx, posId: string, operationId: string) {
  const result = await sql<ReturnableAccrual>`
    select o.id, o.account_id, o.card_id, o.card_number, r.receipt_id
    from operations o join receipts r on r.accrual_id = o.id
    where o.operation_id = ${operationId} and o.pos_id = ${posId}::uuid and o.type = 'accrual'
      and o.status = 'completed'`.execute(trx);
  return result.rows[0];
}

export interface LockedLine {
  line_no: number;
  sku: string;
  quantity: string;
  bonus_points: string;
  returned_quantity: string;
  returned_points: string;
}

/** The receipt's lines, locked: concurrent returns of one receipt take turns, so none over-returns. */
export async function lockReceiptLines(trx: Tx, accrualId: string): Promise<LockedLine[]> {
  const result = await sql<LockedLine>`
    select line_no, sku, quantity, bonus_points, returned_quantity, returned_points
    from receipt_items where accrual_id = ${accrualId}::uuid
    order by line_no
    for no key update`.execute(trx);
  return result.rows;
}

export interface ReturnLots {
  /** Points of the account's lots still pending. */
  pending: string;
  /** What is left of the accrual's own lot while it is pending (a return may take it even then), else 0. */
  own_pending: string;
}

/** The lots a return decides on (the account is locked). */
export async function readReturnLots(trx: Tx, accountId: string, accrualId: string): Promise<ReturnLots> {
  const result = await sql<ReturnLots>`
    select ${pendingOf(sql`${accountId}::uuid`)} as pending,
      coalesce((select remaining from lots where credit_id = ${accrualId}::uuid and available_at > now()), 0)
        as own_pending`.execute(trx);
  return result.rows[0]!;
}

export interface ReturnWrite {
  claim: PosClaim;
  original: ReturnableAccrual;
  lines: Array<{ lineNo: number; returnedQuantity: string; returnedPoints: string }>;
  /** Points taken back (positive). */
  taken: string;
  meta: Record<string, unknown>;
}

/**
 * Persist a return: the lines' returned amounts, the debit, the `adjustment` operation, the lots it takes
 * back (its accrual's lot first) and the idempotency record with the answer, in one statement.
 */
export async function applyReturn(trx: Tx, w: ReturnWrite): Promise<StoredRequest> {
  const result = await sql<StoredRequest>`
    with l as (
      update receipt_items set returned_quantity = u."returnedQuantity", returned_points = u."returnedPoints"
      from jsonb_to_recordset(${JSON.stringify(w.lines)}::jsonb) as u("lineNo" integer,
        "returnedQuantity" numeric, "returnedPoints" numeric)
      where receipt_items.accrual_id = ${w.original.id}::uuid and receipt_items.line_no = u."lineNo"
    ),
    a as (
      update accounts set balance = balance - ${w.taken}::numeric where id = ${w.original.account_id}::uuid
    ),
    q as (${insertClaim(w.claim)}),
    o as (
      insert into operations (operation_id, type, status, points, account_id, card_id, card_number, pos_id,
        related_id, meta)
      select ${w.claim.operationId}, 'adjustment', 'completed', -${w.taken}::numeric,
        ${w.original.account_id}::uuid, ${w.original.card_id}::uuid, ${w.original.card_number},
        ${w.claim.posId}::uuid, ${w.original.id}::uuid,
        ${JSON.stringify(w.meta)}::jsonb
      from q
      returning id
    ),
    ${consumeLots({
      accountId: w.original.account_id,
      points: w.taken,
      operationId: sql`(select id from o)`,
      returnOf: w.original.id,
    })}
    select * from q`.execute(trx);
  return result.rows[0]!;
}
