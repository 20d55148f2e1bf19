import { isUuid } from '@loyalty/contracts';
import { sql } from 'kysely';
import { anyUuid } from '../../db/any-of';
import type { Db } from '../../db/connection';

export interface ReceiptRow {
  accrual_id: string;
  receipt_id: string;
  pos_id: string;
  card_number: string;
  total_amount: string;
  total_discount: string;
  created_at: Date;
  /** An offline till's purchase time, else the booking time. */
  purchased_at: Date;
  pos_name: string | null;
  pos_address: string | null;
  ruleset_version: number | null;
}

/** A receipt with its POS, from an accrual `o`. */
const receiptColumns = sql`select r.accrual_id, r.receipt_id, r.pos_id, r.card_number, r.total_amount,
    r.total_discount, r.created_at, coalesce(r.purchased_at, r.created_at) as purchased_at, p.name as pos_name, p.address as pos_address,
    o.ruleset_version
  from operations o
  join receipts r on r.accrual_id = o.id
  left join pos_keys p on p.id = r.pos_id`;

/** The receipt of an accrual, by its operation id (uuid) or its POS operationId. */
export async function findReceipt(db: Db, id: string): Promise<ReceiptRow | undefined> {
  const result = await sql<ReceiptRow>`
    ${receiptColumns}
    where o.type = 'accrual' and ${
      isUuid(id) ? sql`(o.id = ${id}::uuid or o.operation_id = ${id})` : sql`o.operation_id = ${id}`
    }
    limit 1`.execute(db);
  return result.rows[0];
}

/** The receipts of an account's POS accruals, newest first (a member's data export). */
export async function findReceiptsOfAccount(db: Db, accountId: string): Promise<ReceiptRow[]> {
  const result = await sql<ReceiptRow>`
    ${receiptColumns}
    where o.account_id = ${accountId} and o.type = 'accrual'
    order by r.created_at desc, r.accrual_id desc`.execute(db);
  return result.rows;
}

export async function findItemsOfReceipts(db: Db, accrualIds: readonly string[]) {
  if (accrualIds.length === 0) return [];
  return db
    .selectFrom('receipt_items')
    .select([
      'accrual_id',
      'id',
      'sku',
      'category',
      'quantity',
      'price',
      'discount',
      'line_total',
      'bonus_points',
      // Lines booked before rules v2 (migration 018) have no rule: v1 had only the base and exclusions, so
      // the exclusions of the ruleset version the accrual used name them (one removed since reads as base).
      sql<string>`coalesce(receipt_items.rule, case when exists (
        select 1 from operations o
        join rulesets r on r.version = o.ruleset_version
        join excluded_skus e on e.ruleset_id = r.id and e.sku = receipt_items.sku
        where o.id = receipt_items.accrual_id) then 'excluded' else 'base' end)`.as('rule'),
    ])
    .where('accrual_id', '=', anyUuid([...accrualIds]))
    .orderBy('accrual_id')
    .orderBy('line_no')
    .execute();
}
