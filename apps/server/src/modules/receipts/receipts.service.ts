import type { ReceiptDetail } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { amountNumber, milliNumber, parseMilli } from '../../lib/money';
import { toIso } from '../../lib/paging';
import { findReceipt, findReceiptItems } from './receipts.repository';

/** GET /api/v1/receipts/operation/{id}: only accruals made by a POS have receipts. */
export async function receiptOfOperation(db: Db, id: string): Promise<ReceiptDetail> {
  const receipt = await findReceipt(db, id);
  if (!receipt) throw new AppError('RECEIPT_NOT_FOUND');
  const items = await findReceiptItems(db, receipt.accrual_id);
  return {
    receipt: {
      receiptId: receipt.receipt_id,
      posId: receipt.pos_id,
      totalAmount: amountNumber(receipt.total_amount),
      totalDiscount: amountNumber(receipt.total_discount),
      createdAt: toIso(receipt.created_at) as string,
      cardNumber: receipt.card_number,
    },
    posName: receipt.pos_name,
    posAddress: receipt.pos_address,
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
    })),
  };
}
