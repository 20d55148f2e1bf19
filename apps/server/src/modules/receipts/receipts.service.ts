import type { ReceiptDetail } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { amountNumber, milliNumber, parseMilli } from '../../lib/money';
import { toIso } from '../../lib/paging';
import {
  findItemsOfReceipts,
  findReceipt,
  findReceiptsOfAccount,
  type ReceiptRow,
} from './receipts.repository';

type ItemRow = Awaited<ReturnType<typeof findItemsOfReceipts>>[number];

/** GET /api/v1/receipts/operation/{id}: only accruals made by a POS have receipts. */
export async function receiptOfOperation(db: Db, id: string): Promise<ReceiptDetail> {
  const receipt = await findReceipt(db, id);
  if (!receipt) throw new AppError('RECEIPT_NOT_FOUND');
  return toReceiptDetail(receipt, await findItemsOfReceipts(db, [receipt.accrual_id]));
}

/** Every receipt of an account's POS accruals, newest first, items in line order. */
export async function receiptsOfAccount(db: Db, accountId: string): Promise<ReceiptDetail[]> {
  const receipts = await findReceiptsOfAccount(db, accountId);
  const items = new Map<string, ItemRow[]>();
  for (const item of await findItemsOfReceipts(
    db,
    receipts.map((r) => r.accrual_id),
  )) {
    const lines = items.get(item.accrual_id);
    if (lines) lines.push(item);
    else items.set(item.accrual_id, [item]);
  }
  return receipts.map((receipt) => toReceiptDetail(receipt, items.get(receipt.accrual_id) ?? []));
}

function toReceiptDetail(receipt: ReceiptRow, items: ItemRow[]): ReceiptDetail {
  return {
    receipt: {
      receiptId: receipt.receipt_id,
      posId: receipt.pos_id,
      totalAmount: amountNumber(receipt.total_amount),
      totalDiscount: amountNumber(receipt.total_discount),
      createdAt: toIso(receipt.created_at) as string,
      purchasedAt: toIso(receipt.purchased_at) as string,
      cardNumber: receipt.card_number,
    },
    posName: receipt.pos_name,
    posAddress: receipt.pos_address,
    rulesetVersion: receipt.ruleset_version,
    items: items.map((item) => ({
      id: item.id,
      sku: item.sku,
      category: item.category,
      // Quantities keep their 3 decimals (goods sold by weight).
      quantity: milliNumber(parseMilli(item.quantity)),
      price: amountNumber(item.price),
      discount: amountNumber(item.discount),
      lineTotal: amountNumber(item.line_total),
      bonusPoints: amountNumber(item.bonus_points),
      rule: item.rule,
    })),
  };
}
