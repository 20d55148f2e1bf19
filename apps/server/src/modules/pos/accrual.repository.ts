import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { CardStatus } from '../../db/schema';
import { centsText, MAX_BALANCE_CENTS, milliText } from '../../lib/money';
import type { StoredRequest } from './idempotency';
import type { ReceiptLineTotals } from './receipt-math';

export interface AccrualContextRow {
  card_id: string | null;
  card_status: CardStatus | null;
  account_id: string | null;
  balance: string | null;
  ruleset_version: number | null;
  percent: string | null;
  excluded: string[] | null;
  existing_pos_id: string | null;
  existing_hash: string | null;
  existing_status: number | null;
  existing_response: unknown;
}

/**
 * Everything an accrual needs to decide, in one round trip: an earlier request with this operationId,
 * the card and its account, the ruleset in force (highest version whose activeFrom has come) and which
 * of the receipt's SKUs it excludes.
 */
export async function readAccrualContext(
  db: Db,
  input: { operationId: string | null; cardNumber: string; skus: string[] },
): Promise<AccrualContextRow> {
  const result = await sql<AccrualContextRow>`
    select c.id as card_id, c.status as card_status, c.account_id, a.balance,
      r.version as ruleset_version, r.percent, r.excluded,
      q.pos_id as existing_pos_id, q.request_hash as existing_hash,
      q.status_code as existing_status, q.response as existing_response
    from (select 1) as one
    left join pos_requests q on q.operation_id = ${input.operationId}
    left join cards c on c.number = ${input.cardNumber}
    left join accounts a on a.id = c.account_id
    left join lateral (
      select r.version, r.percent, array(
        select e.sku from excluded_skus e
        where e.ruleset_id = r.id
          and e.sku in (select jsonb_array_elements_text(${JSON.stringify(input.skus)}::jsonb))
      ) as excluded
      from rulesets r
      where r.active_from <= now() and r.retired_at is null
      order by r.version desc
      limit 1
    ) r on true`.execute(db);
  return result.rows[0]!;
}

export interface AccrualWrite {
  rowId: string;
  operationId: string;
  posId: string;
  hash: string;
  cardNumber: string;
  receiptId: string;
  /** Lines with their totals; the bonus is the statement's, from the ruleset it finds in force. */
  lines: ReceiptLineTotals[];
  totalAmountCents: bigint;
  totalDiscountCents: bigint;
}

/**
 * The whole accrual as one statement (one atomic commit, no explicit transaction): find the active card
 * and the ruleset in force, compute each line's bonus (round2(lineTotal × percent / 100), 0 for an
 * excluded SKU), credit the account, claim the operationId with the answer, then write the operation, the
 * receipt and its lines. Every POS statement takes its locks in one order (hold row, account, operationId
 * claim, new operation), so copies of one request racing each other cannot deadlock. Returns nothing when the card is missing or not active, no ruleset is in
 * force or the balance would pass its limit (the caller reads why); a concurrent duplicate fails on the operationId key.
 */
export async function insertAccrual(db: Db, w: AccrualWrite): Promise<StoredRequest | undefined> {
  const lines = w.lines.map((l) => ({
    line_no: l.lineNo,
    sku: l.sku,
    category: l.category,
    quantity: milliText(l.quantityMilli),
    price: centsText(l.priceCents),
    discount: centsText(l.discountCents),
    line_total: centsText(l.lineTotalCents),
  }));
  const meta = { receipt: w.receiptId };
  const result = await sql<StoredRequest>`
    with c as (
      select id, account_id from cards where number = ${w.cardNumber} and status = 'active'
    ),
    r as (
      select id, version, percent from rulesets
      where active_from <= now() and retired_at is null order by version desc limit 1
    ),
    l as (
      select x.*, case
        when exists (select 1 from excluded_skus e where e.ruleset_id = r.id and e.sku = x.sku) then 0
        else round(x.line_total * r.percent / 100, 2) end as bonus_points
      from r, jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as x(line_no integer, sku text,
        category text, quantity numeric, price numeric, discount numeric, line_total numeric)
    ),
    t as (select coalesce(sum(bonus_points), 0) as points from l),
    a as (
      update accounts set balance = balance + t.points
      from c, t, r
      where accounts.id = c.account_id and accounts.balance + t.points <= ${centsText(MAX_BALANCE_CENTS)}::numeric
      returning accounts.balance, t.points, c.id as card_id, c.account_id, r.version
    ),
    q as (
      insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      select ${w.operationId}, ${w.posId}::uuid, ${w.hash}, 201, jsonb_build_object(
        'operationId', ${w.operationId}::text,
        'points', a.points,
        'balance', a.balance,
        'receipt', jsonb_build_object(
          'receiptId', ${w.receiptId}::text,
          'totalAmount', ${centsText(w.totalAmountCents)}::numeric,
          'totalDiscount', ${centsText(w.totalDiscountCents)}::numeric,
          'items', (select jsonb_agg(jsonb_build_object('sku', sku, 'category', category,
            'quantity', quantity, 'price', price, 'discount', discount, 'lineTotal', line_total,
            'bonusPoints', bonus_points) order by line_no) from l)))
      from a
      returning pos_id, request_hash, status_code, response
    ),
    o as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number,
        pos_id, ruleset_version, meta)
      select ${w.rowId}::uuid, ${w.operationId}, 'accrual', 'completed', a.points, a.account_id, a.card_id,
        ${w.cardNumber}, ${w.posId}::uuid, a.version, ${JSON.stringify(meta)}::jsonb
      from q, a
    ),
    rc as (
      insert into receipts (accrual_id, receipt_id, pos_id, card_number, total_amount, total_discount)
      select ${w.rowId}::uuid, ${w.receiptId}, ${w.posId}::uuid, ${w.cardNumber},
        ${centsText(w.totalAmountCents)}::numeric, ${centsText(w.totalDiscountCents)}::numeric
      from q
    ),
    i as (
      insert into receipt_items (accrual_id, line_no, sku, category, quantity, price, discount, line_total,
        bonus_points)
      select ${w.rowId}::uuid, l.line_no, l.sku, l.category, l.quantity, l.price, l.discount, l.line_total,
        l.bonus_points
      from q, l
    )
    select * from q`.execute(db);
  return result.rows[0];
}
