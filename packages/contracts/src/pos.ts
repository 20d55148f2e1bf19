import { z } from 'zod';
import { businessTimestamp, decimal2, isoTimestamp, SKU_MAX_LENGTH } from './common';
import { receiptLineRule } from './receipts';

/**
 * POS API (POS-API.md): what tills call with `X-API-Key`. Money and points are decimals with at most
 * 2 places; quantities may have up to 3 (goods sold by weight).
 */

/**
 * Bounds derived from the columns that store what validation accepts (migrations 002 and 003), so that
 * nothing accepted can overflow them (issue 15.2):
 * - price, discount: numeric(14, 2) (below 10^12) ≥ MAX_MONEY; hold points, operations.points: the same;
 * - quantity: numeric(12, 3) (below 10^9) ≥ MAX_QUANTITY;
 * - Σ quantity × price of a receipt ≤ MAX_RECEIPT_AMOUNT, so every line total and the receipt's totals fit
 *   numeric(16, 2), and the points they earn (at most 100 % of them) fit numeric(14, 2).
 * A balance (numeric(14, 2)) that a credit would take past MAX_BALANCE is refused with
 * BALANCE_LIMIT_EXCEEDED instead.
 */
const MAX_MONEY = 1_000_000_000;
const MAX_QUANTITY = 1_000_000;
export const MAX_RECEIPT_AMOUNT = 10_000_000_000;
/** The largest balance numeric(14, 2) can store. */
export const MAX_BALANCE = 999_999_999_999.99;

// Bounds as zod checks, not refinements, so the API document states them (issue 15.6).
const moneyRange = `must be between 0 and ${MAX_MONEY}`;
const money = decimal2.min(0, moneyRange).max(MAX_MONEY, moneyRange);
const pointsRange = `must be between 0.01 and ${MAX_MONEY}`;
// The least is a cent, not "above 0": a float-safe multipleOf takes 1e-18, which would be held as 0.00.
const positivePoints = decimal2.min(0.01, pointsRange).max(MAX_MONEY, pointsRange);
const quantityRange = `must be greater than 0 and at most ${MAX_QUANTITY}`;
export const posQuantity = z
  .number()
  .finite()
  .gt(0, quantityRange)
  .max(MAX_QUANTITY, quantityRange)
  .multipleOf(0.001, 'must have at most 3 decimal places');

/**
 * The till's idempotency key, unique across all POS, kept exactly as sent. Not `.` or `..`: staff look an
 * operation up by it in a path (GET /api/v1/receipts/operation/{id}), where a client's URL normalisation
 * removes such a segment, so the operation could never be found (the same rule as a SKU's, rulesets.ts).
 */
export const posOperationId = z
  .string()
  .min(1, 'operationId is required')
  .max(128)
  .refine((id) => id !== '.' && id !== '..', "operationId cannot be '.' or '..'")
  .meta({ not: { enum: ['.', '..'] } });
const cardNumberField = z.string().trim().min(1, 'cardNumber is required').max(64);
const text = (max: number) => z.string().trim().min(1).max(max);

export const posCardStatus = z.enum(['active', 'blocked', 'pending']);

export const posCardBalance = z.object({
  cardNumber: z.string(),
  status: posCardStatus,
  balance: z.number(),
  heldBalance: z.number(),
  /** Points earned but still in their pending period. */
  pendingBalance: z.number(),
  /** balance − heldBalance − pendingBalance, never negative. */
  availableBalance: z.number(),
  /** The soonest expiry among the account's lots with points left: how many points lapse then. */
  nextExpiry: z.object({ points: z.number(), expiresAt: isoTimestamp }).nullable(),
});
export type PosCardBalance = z.infer<typeof posCardBalance>;

export const posCardParams = z.object({ cardNumber: z.string().min(1).max(64) });

export const receiptLineRequest = z
  .object({
    sku: text(SKU_MAX_LENGTH),
    category: z
      .string()
      .trim()
      .max(128)
      .nullish()
      .transform((v) => (v ? v : null)),
    quantity: posQuantity,
    price: money,
    discount: money.default(0),
  })
  .refine((line) => Math.round(line.discount * 100) <= lineGrossCents(line.quantity, line.price), {
    message: 'discount must not exceed quantity × price',
    path: ['discount'],
  });

/**
 * quantity × price in cents, rounded half away from zero: the gross the server's lineTotal starts from
 * (`receipt-math.ts`), so a discount of the whole rounded gross (2.5 kg × 0.99 = 2.475 → 2.48) is a free
 * line, not a refusal. Exact while the product of thousandths and cents is a safe integer, which holds for
 * every line a receipt's bound (MAX_RECEIPT_AMOUNT) lets through; past it the float product is close enough,
 * since the receipt is refused anyway.
 */
export function lineGrossCents(quantity: number, price: number): number {
  const product = Math.round(quantity * 1000) * Math.round(price * 100);
  if (!Number.isSafeInteger(product)) return Math.round(quantity * price * 100);
  const rest = product % 1000;
  return (product - rest) / 1000 + (rest * 2 >= 1000 ? 1 : 0);
}

/** Before discounts. Floats are fine here: the bound sits far below what the columns can store. */
const grossAmount = (items: Array<{ quantity: number; price: number }>) =>
  items.reduce((sum, line) => sum + line.quantity * line.price, 0);

/** How old an offline till's purchase may be when it syncs (PROGRAMME-API §1 "Offline tills"). */
export const PURCHASED_AT_MAX_AGE_DAYS = 30;
/** Tills' clocks drift: a purchase this far ahead of the server's clock still counts as "now". */
export const PURCHASED_AT_CLOCK_SKEW_MS = 60_000;

/** Why an offline till's purchasedAt older than the contract allows is refused (400 VALIDATION_ERROR). */
export const PURCHASED_AT_TOO_OLD = `must be at most ${PURCHASED_AT_MAX_AGE_DAYS} days old`;

/** An offline till's purchase older than PURCHASED_AT_MAX_AGE_DAYS by the clock of the server checking it. */
export function purchasedTooLongAgo(purchasedAt: string, now = Date.now()): boolean {
  return Date.parse(purchasedAt) < now - PURCHASED_AT_MAX_AGE_DAYS * 86_400_000;
}

/**
 * When an offline till's purchase happened (ISO-8601 with a zone); the lot's dates count from it. Checked
 * against the clock of the server that validates it: not in the future here; at most 30 days old by the
 * accrual (`purchasedTooLongAgo`), once it knows the request is not the retry of one it accepted while the
 * purchase was younger, which gets its first answer again like any replay (POS-API "Idempotency").
 */
export const purchasedAt = businessTimestamp().refine(
  (v) => Date.parse(v) <= Date.now() + PURCHASED_AT_CLOCK_SKEW_MS,
  'must not be in the future',
);

export const accrualRequest = z.object({
  operationId: posOperationId,
  cardNumber: cardNumberField,
  receipt: z.object({
    receiptId: text(128),
    purchasedAt: purchasedAt
      .optional()
      .describe(
        `offline till: when the purchase happened (not in the future, at most ${PURCHASED_AT_MAX_AGE_DAYS} days old); absent = now`,
      ),
    items: z
      .array(receiptLineRequest)
      .min(1, 'a receipt needs at least one item')
      .max(500)
      .refine((items) => grossAmount(items) <= MAX_RECEIPT_AMOUNT, {
        message: `the receipt's Σ quantity × price must be at most ${MAX_RECEIPT_AMOUNT}`,
      })
      .describe(`Σ quantity × price over the items must be at most ${MAX_RECEIPT_AMOUNT}`),
  }),
});
export type AccrualRequest = z.input<typeof accrualRequest>;

export const accrualPreviewRequest = accrualRequest.extend({ operationId: posOperationId.optional() });
export type AccrualPreviewRequest = z.input<typeof accrualPreviewRequest>;

export const receiptLineResult = z.object({
  sku: z.string(),
  category: z.string().nullable(),
  quantity: z.number(),
  price: z.number(),
  discount: z.number(),
  lineTotal: z.number(),
  bonusPoints: z.number(),
  rule: receiptLineRule,
});

export const accrualResponse = z.object({
  operationId: z.string(),
  points: z.number(),
  balance: z.number().describe('balance after the accrual'),
  receipt: z.object({
    receiptId: z.string(),
    totalAmount: z.number().describe('sum of line totals (after discounts)'),
    totalDiscount: z.number(),
    items: z.array(receiptLineResult),
  }),
});
export type AccrualResponse = z.infer<typeof accrualResponse>;

export const accrualPreviewResponse = accrualResponse.extend({
  operationId: z.string().nullable(),
  balance: z.number().describe('what the balance would be after the accrual'),
});
export type AccrualPreviewResponse = z.infer<typeof accrualPreviewResponse>;

export const holdRequest = z.object({
  operationId: posOperationId,
  cardNumber: cardNumberField,
  points: positivePoints,
});
export type HoldRequest = z.infer<typeof holdRequest>;

export const holdResponse = z.object({
  holdId: z.uuid(),
  operationId: z.string(),
  points: z.number(),
  status: z.literal('active'),
  expiresAt: isoTimestamp,
  availableBalance: z.number(),
});
export type HoldResponse = z.infer<typeof holdResponse>;

export const holdParams = z.object({ holdId: z.string().min(1).max(64) });

export const captureRequest = z.object({
  operationId: posOperationId,
  points: positivePoints.optional().describe('at most the held points; the rest is released (default: all)'),
});
export type CaptureRequest = z.infer<typeof captureRequest>;

export const captureResponse = z.object({
  holdId: z.uuid(),
  status: z.literal('captured'),
  points: z.number().describe('points redeemed'),
  balance: z.number(),
});
export type CaptureResponse = z.infer<typeof captureResponse>;

export const releaseRequest = z.object({ operationId: posOperationId });
export type ReleaseRequest = z.infer<typeof releaseRequest>;

export const releaseResponse = z.object({
  holdId: z.uuid(),
  status: z.literal('released'),
  availableBalance: z.number(),
});
export type ReleaseResponse = z.infer<typeof releaseResponse>;

export const returnRequest = z.object({
  operationId: posOperationId,
  originalOperationId: posOperationId.describe('operationId of the accrual being returned'),
  items: z
    .array(z.object({ sku: text(SKU_MAX_LENGTH), quantity: posQuantity }))
    .min(1)
    .max(500)
    .optional()
    .describe('lines returned; absent = the whole (remaining) receipt'),
});
export type ReturnRequest = z.infer<typeof returnRequest>;

export const returnResponse = z.object({
  operationId: z.string(),
  points: z.number().describe('points taken back (negative or 0)'),
  balance: z.number(),
});
export type ReturnResponse = z.infer<typeof returnResponse>;
