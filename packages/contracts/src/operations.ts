import { z } from 'zod';
import { decimalText, idInput, isoTimestamp, listFormat, pageQuery, sortParam } from './common';

/** `expiry`: the points of an account's lots that expired in one run (negative, completed; PROGRAMME-API §1). */
export const operationTypes = ['accrual', 'redemption', 'hold', 'adjustment', 'expiry'] as const;
export const operationType = z.enum(operationTypes);
export type OperationType = z.infer<typeof operationType>;

export const operationStatuses = ['completed', 'active', 'pending', 'failed', 'applied', 'voided'] as const;
export const operationStatus = z.enum(operationStatuses);
export type OperationStatus = z.infer<typeof operationStatus>;

const metaValue = z.union([z.string(), z.number(), z.boolean()]).optional();

/** The parts of an operation's meta the console shows as Details; other keys stay server-side. */
export const operationMeta = z.object({
  store: metaValue,
  transactionId: metaValue,
  receipt: metaValue,
  reward: metaValue,
  reason: metaValue,
  error: metaValue,
  /** An `expiry` operation: how many lots it expired. */
  lots: metaValue,
  // Described for the API document too: integrators read these in answers and in webhook events.
  operationId: metaValue.describe(
    'A failed POS write refused before it could take its operationId (validation errors, an operationId ' +
      "already used, by this or another POS): the id the till sent. Not taken: the operation's own " +
      'operationId stays null and the id stays free. The list search finds the row by it.',
  ),
  holdId: metaValue.describe(
    'A redemption: the id of the hold it captured. A failed POS capture or release: the hold id the till named.',
  ),
  returnOf: metaValue.describe(
    'A POS return (adjustment): the operationId of the accrual it takes points back from.',
  ),
  source: metaValue.describe(
    'An imported credit: `import-opening` (an opening balance of the members import) or `import-credit` ' +
      '(a bulk credit). Absent on manual and POS operations.',
  ),
  importId: metaValue.describe("An imported credit: the import's id (the target id of its audit entry)."),
  line: metaValue.describe("An imported credit: the file's line it came from (the header is line 1)."),
  shortfall: metaValue.describe(
    'A POS return: the points it could not take back, the account holding less than the returned goods ' +
      'earned (what is held or spent stays); points is what it took. Absent when it took them all.',
  ),
});
export type OperationMeta = z.infer<typeof operationMeta>;

export const operation = z.object({
  id: z.uuid(),
  /** The POS's idempotency key; null for operations made in the console. */
  operationId: z.string().nullable(),
  type: operationType,
  /** Signed numeric string with 2 decimals: "12.50", "-3.00". */
  points: decimalText,
  status: operationStatus,
  accountId: z.uuid().nullable(),
  cardNumber: z.string().nullable(),
  posId: z.uuid().nullable(),
  posName: z.string().nullable(),
  posAddress: z.string().nullable(),
  createdAt: isoTimestamp,
  meta: operationMeta,
});
export type Operation = z.infer<typeof operation>;

export const operationSortFields = ['createdAt'] as const;

/**
 * `search`: a card-number prefix or an operation-id prefix (or an operation's exact UUID); the id prefix
 * also finds the failed POS writes by the id they asked for (`meta.operationId`).
 */
export const operationListQuery = pageQuery.extend({
  format: listFormat,
  type: operationType.optional(),
  status: operationStatus.optional(),
  accountId: idInput.optional(),
  cardNumber: z.string().trim().min(1).max(32).optional(),
  sort: sortParam(operationSortFields),
});
export type OperationListQuery = z.input<typeof operationListQuery>;

/** Spec section 5 "Add points": the console shows it under the amount as it is. */
const INVALID_POINTS = 'Please enter a valid points amount';

export const manualAccrualRequest = z.object({
  accountId: idInput,
  points: z
    .number(INVALID_POINTS)
    .finite(INVALID_POINTS)
    // A check, not a refinement, so the API document states it (issue 15.6).
    .multipleOf(0.01, 'Points may have at most 2 decimal places')
    // At least a cent, not just above 0: zod's float-safe multipleOf takes a value as small as 1e-18 for a
    // multiple of 0.01, which the ledger's cents would round to a 0.00 adjustment.
    .min(0.01, INVALID_POINTS)
    .max(1_000_000_000, 'Points must be at most 1,000,000,000'),
  reason: z
    .string()
    .trim()
    .max(500)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type ManualAccrualRequest = z.input<typeof manualAccrualRequest>;

/**
 * Optional `Idempotency-Key` (issue 15.7): 1–255 visible ASCII characters, scoped to the signed-in user.
 * Loose: every other header passes through untouched.
 */
export const manualAccrualHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'must be 1 to 255 visible ASCII characters')
    .optional()
    .describe(
      'Makes a retry safe: the same key with the same body gets the first answer again (same status and ' +
        'body, header Idempotent-Replayed: true) and nothing is booked twice; the same key with another body ' +
        'is 409 IDEMPOTENCY_KEY_REUSED. Keys are per user (two users never share one) and are kept.',
    ),
});

export const manualAccrualResponse = z.object({
  operation,
  /** The account's balance after the accrual. */
  balance: z.number(),
});
export type ManualAccrualResponse = z.infer<typeof manualAccrualResponse>;
