import { z } from 'zod';
import { isoTimestamp, pageQuery, sortParam } from './common';

export const cardStatuses = ['active', 'blocked', 'pending'] as const;
export const cardStatus = z.enum(cardStatuses);
export type CardStatus = z.infer<typeof cardStatus>;

export const card = z.object({
  id: z.uuid(),
  /** 16 digits, the last a Luhn check digit. */
  number: z.string(),
  accountId: z.uuid(),
  status: cardStatus,
  issuedAt: isoTimestamp.nullable(),
  createdAt: isoTimestamp,
  blockedAt: isoTimestamp.nullable(),
  blockedReason: z.string().nullable(),
  /** Set on a card that was reissued: the id of the card that replaced it. */
  replacedBy: z.uuid().nullable(),
});
export type Card = z.infer<typeof card>;

export const cardSortFields = ['createdAt', 'number'] as const;

/** `search`: a card-number prefix, or an exact account id when the text is a UUID. */
export const cardListQuery = pageQuery.extend({
  status: cardStatus.optional(),
  accountId: z.uuid().optional(),
  sort: sortParam(cardSortFields),
});
export type CardListQuery = z.input<typeof cardListQuery>;

export const DEFAULT_BLOCK_REASON = 'Blocked by admin';

/** The body is optional; a missing or blank reason becomes 'Blocked by admin'. */
export const blockCardRequest = z
  .object({
    reason: z
      .string()
      .trim()
      .max(500)
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .nullish();
export type BlockCardRequest = z.input<typeof blockCardRequest>;

/**
 * The console's Block Card dialog asks for a reason (spec section 5 "Block card"), though the API would
 * default it: the same trimming and length, plus the spec's message when it is blank.
 */
export const blockCardDialogRequest = z.object({
  reason: z.string().trim().min(1, 'Block reason is required').max(500),
});

export const accountIdParam = z.object({ accountId: z.uuid() });
