import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { batchEventSteps } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { type AccrualWrite, receiptLinesText } from './accrual.repository';
import { balancesAfter } from './balances.sql';
import {
  answersInOrder,
  insertClaims,
  updateBatchAccounts,
  writeColumns,
  writeRow,
} from './ledger.repository';
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
    ...writeRow(w),
    ruleset_version: w.rulesetVersion,
    meta: w.operation.meta,
    receipt_id: w.receipt.receiptId,
    total_amount: w.receipt.totalAmount,
    total_discount: w.receipt.totalDiscount,
    purchased_at: w.purchasedAt,
  }));
  const lines = writes.flatMap((w) => w.lines.map((l) => ({ accrual_id: w.operation.id, ...l })));
  const result = await sql<StoredRequest & { operation_id: string }>`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${writeColumns},
        ruleset_version integer, meta jsonb, receipt_id text, total_amount numeric, total_discount numeric,
        purchased_at timestamptz)
    ),
    a as (${updateBatchAccounts(
      sql`balance = accounts.balance + s.points`,
      sql`sum(x.points) as points`,
      writes.map((w) => w.operation.account_id!),
    )}),
    q as (${insertClaims}),
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
    ${batchEventSteps(
      'points.accrued',
      balancesAfter(
        sql`a.id`,
        sql`(select coalesce(sum(lot.remaining), 0) from lot where lot.account_id = a.id and lot.available_at > now())`,
      ),
    )}
    select * from q`.execute(trx);
  return answersInOrder(result.rows, writes);
}
