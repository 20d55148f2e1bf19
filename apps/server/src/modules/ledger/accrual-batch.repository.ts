import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { eventSteps } from '../events/events.repository';
import { toOperation } from '../operations/operations.repository';
import type { StoredRequest } from '../pos/idempotency';
import { type AccrualWrite, receiptLinesText } from './accrual.repository';
import { balancesAfter } from './balances.sql';
import { insertCreditLots } from './lots.sql';

/**
 * Persist decided accruals in one statement, each of a different account already locked: the balance
 * credits, the idempotency records with their answers, the `accrual` operations, their lots, the receipts
 * (with their lines as one text), their lines and the events: `insertAccrual`'s statement, set-based for a
 * batch (`accrual-batch.ts`), so the batch pays for the statement and its triggers once. The claims come
 * before the new operations (the lock order of every POS write; `exists (select from q)` makes the other
 * steps wait for them), and a concurrent duplicate fails on the operationId key. The stored answers, in
 * the writes' order.
 */
export async function insertAccruals(trx: Tx, writes: readonly AccrualWrite[]): Promise<StoredRequest[]> {
  const rows = writes.map((w) => ({
    id: w.operation.id,
    operation_id: w.claim.operationId,
    pos_id: w.claim.posId,
    request_hash: w.claim.hash,
    status_code: w.claim.status,
    response: w.claim.response,
    account_id: w.operation.account_id,
    card_id: w.cardId,
    card_number: w.operation.card_number,
    points: w.operation.points,
    ruleset_version: w.rulesetVersion,
    meta: w.operation.meta,
    receipt_id: w.receipt.receiptId,
    total_amount: w.receipt.totalAmount,
    total_discount: w.receipt.totalDiscount,
    purchased_at: w.purchasedAt,
    event: toOperation(w.operation),
  }));
  const lines = writes.flatMap((w) => w.lines.map((l) => ({ accrual_id: w.operation.id, ...l })));
  const result = await sql<StoredRequest & { operation_id: string }>`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(id uuid,
        operation_id text, pos_id uuid, request_hash text, status_code integer, response jsonb,
        account_id uuid, card_id uuid, card_number text, points numeric, ruleset_version integer, meta jsonb,
        receipt_id text, total_amount numeric, total_discount numeric, purchased_at timestamptz, event jsonb)
    ),
    a as (
      -- The ids as an array too: joined only with x (estimated at 100 rows), the plan scanned all accounts.
      update accounts set balance = accounts.balance + x.points from x
      where accounts.id = any(${writes.map((w) => w.operation.account_id)}::uuid[]) and accounts.id = x.account_id
      returning accounts.id, accounts.balance, accounts.held_balance
    ),
    q as (
      insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      select operation_id, pos_id, request_hash, status_code, response from x
      returning operation_id, pos_id, request_hash, status_code, response
    ),
    o as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number,
        pos_id, ruleset_version, meta)
      select x.id, x.operation_id, 'accrual', 'completed', x.points, x.account_id, x.card_id, x.card_number,
        x.pos_id, x.ruleset_version, x.meta
      from x where exists (select from q)
      returning id, created_at
    ),
    lot as (${insertCreditLots(sql`(select o.id, x.account_id, x.points,
      least(x.purchased_at, o.created_at) as earned_at from o join x using (id))`)}),
    l as (
      select * from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as l(accrual_id uuid, line_no integer,
        sku text, category text, quantity numeric, price numeric, discount numeric, line_total numeric,
        bonus_points numeric, rule text)
    ),
    rc as (
      insert into receipts (accrual_id, receipt_id, pos_id, card_number, total_amount, total_discount,
        purchased_at, lines_text)
      select x.id, x.receipt_id, x.pos_id, x.card_number, x.total_amount, x.total_discount, x.purchased_at,
        ${receiptLinesText(sql`l.accrual_id = x.id`)}
      from x where exists (select from q)
    ),
    i as (
      insert into receipt_items (accrual_id, line_no, sku, category, quantity, price, discount, line_total,
        bonus_points, rule)
      select l.accrual_id, l.line_no, l.sku, l.category, l.quantity, l.price, l.discount, l.line_total,
        l.bonus_points, l.rule
      from l where exists (select from q)
    ),
    ${eventSteps(sql`select 'points.accrued'::text as type, x.event || ${balancesAfter(
      sql`a.id`,
      sql`(select coalesce(sum(lot.remaining), 0) from lot where lot.account_id = a.id and lot.available_at > now())`,
    )} as data
      from x join a on a.id = x.account_id where exists (select from q)`)}
    select * from q`.execute(trx);
  const stored = new Map(result.rows.map(({ operation_id, ...r }) => [operation_id, r]));
  return writes.map((w) => stored.get(w.claim.operationId)!);
}
