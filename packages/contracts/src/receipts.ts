import { z } from 'zod';
import { isoTimestamp } from './common';

/**
 * Why a line earned what it did (PROGRAMME-API §3): the name of the ruleset's rule that applied, `base`
 * (the ruleset's percent), `excluded` (an excluded SKU), `minSpend` (the receipt is below the minimum
 * spend) or `cap` (a cap cut the line's points).
 */
export const receiptLineRule = z
  .string()
  .describe("the rule that applied: a rule's name, 'base', 'excluded', 'minSpend' or 'cap'");

/** `GET /api/v1/receipts/operation/{id}`: the receipt an accrual was earned on (spec "Receipt detail"). */
export const receiptDetail = z.object({
  receipt: z.object({
    receiptId: z.string(),
    posId: z.uuid(),
    totalAmount: z.number().describe('sum of line totals, after discounts'),
    totalDiscount: z.number(),
    createdAt: isoTimestamp,
    /** When the purchase happened: the till's `purchasedAt` (offline sync), else when it was booked. */
    purchasedAt: isoTimestamp,
    cardNumber: z.string(),
  }),
  posName: z.string().nullable(),
  posAddress: z.string().nullable(),
  /**
   * The version of the ruleset the accrual was earned under (POS-API "The operation records the ruleset
   * version used"): a receipt's points are explained by that ruleset, not by the one in force now. Null
   * when the accrual recorded none.
   */
  rulesetVersion: z.number().int().nullable(),
  items: z.array(
    z.object({
      id: z.uuid(),
      sku: z.string(),
      category: z.string().nullable(),
      quantity: z.number(),
      price: z.number(),
      discount: z.number(),
      lineTotal: z.number().describe('quantity × price − discount'),
      bonusPoints: z.number(),
      rule: receiptLineRule,
    }),
  ),
});
export type ReceiptDetail = z.infer<typeof receiptDetail>;

export const receiptParams = z.object({
  id: z.string().min(1).max(128).describe('operation id (uuid) or the POS operationId of the accrual'),
});
