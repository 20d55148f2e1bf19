import { z } from 'zod';
import { account } from './accounts';
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

/** POST /api/v1/accounts/{id}/erase: the member's client ID, typed again, confirms the erasure. */
export const eraseAccountRequest = z.object({
  confirm: z.string(ERASE_CONFIRM_REQUIRED).min(1, ERASE_CONFIRM_REQUIRED).max(200),
});
export type EraseAccountRequest = z.input<typeof eraseAccountRequest>;

/** The client ID an erased account carries: `erased-` and the first 8 characters of its id. */
export function erasedClientId(accountId: string): string {
  return `erased-${accountId.slice(0, 8)}`;
}
