import { z } from 'zod';
import { account, canonicalClientId } from './accounts';
import { card } from './cards';
import { isoTimestamp } from './common';
import { lot } from './lots';
import { operation } from './operations';
import { receiptDetail } from './receipts';

/** GET /api/v1/accounts/{id}/export (PROGRAMME-API §4 "A member's data"): everything held about one member. */
export const memberDataExport = z.object({
  exportedAt: isoTimestamp,
  account,
  cards: z.array(card),
  operations: z.array(operation).describe('newest first'),
  receipts: z.array(receiptDetail).describe('the receipts of the member’s POS accruals, newest first'),
  lots: z
    .array(lot)
    .describe('the member’s points lots (§1), newest first, as `GET /api/v1/accounts/{id}/lots` shows them'),
});
export type MemberDataExport = z.infer<typeof memberDataExport>;

export const ERASE_CONFIRM_REQUIRED = 'Type the client ID to confirm';

/**
 * POST /api/v1/accounts/{id}/erase: the member's client ID, typed again, confirms the erasure; in its canonical
 * form (`canonicalClientId`), as the stored ID is, so `José` typed on a keyboard that composes it differently
 * still confirms it.
 */
export const eraseAccountRequest = z.object({
  confirm: z
    .string(ERASE_CONFIRM_REQUIRED)
    .overwrite(canonicalClientId)
    .min(1, ERASE_CONFIRM_REQUIRED)
    .max(200),
});
export type EraseAccountRequest = z.input<typeof eraseAccountRequest>;

/**
 * How many hex digits of the account's id an erased client ID takes: 8 (PROGRAMME-API §4), more only when
 * another account already carries that client ID (client IDs are unique; two ids share their first 8 digits
 * about once among 100,000 erased members, and the erasure must not fail on it).
 */
export const ERASED_ID_DIGITS = [8, 12, 16, 32] as const;

/** The client ID an erased account carries: `erased-` and the first `digits` hex digits of its id. */
export function erasedClientId(accountId: string, digits: number = ERASED_ID_DIGITS[0]): string {
  return `erased-${accountId.replace(/-/g, '').slice(0, digits)}`;
}

/** Whether `clientId` is one an erasure of the account gives it (a repeated erasure recognises it). */
export function isErasedClientIdOf(clientId: string, accountId: string): boolean {
  return ERASED_ID_DIGITS.some((digits) => clientId === erasedClientId(accountId, digits));
}
