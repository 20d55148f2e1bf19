import { z } from 'zod';
import { idInput, isoTimestamp, listFormat, pageQuery, sortParam } from './common';

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

/** A card as lists show it (cards list, client lookup): with its account's client ID, so no one reads UUIDs. */
export const cardListItem = card.extend({ clientId: z.string() });
export type CardListItem = z.infer<typeof cardListItem>;

export const cardSortFields = ['createdAt', 'number'] as const;

/**
 * `search`: a card-number prefix, or a client ID (exact, any case; as typed, else in its canonical form:
 * `canonicalClientId`), or an exact account id when the text is a UUID. `accountId`: the cards of that account only.
 */
export const cardListQuery = pageQuery.extend({
  format: listFormat,
  status: cardStatus.optional(),
  accountId: idInput.optional(),
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

export const accountIdParam = z.object({ accountId: idInput });

/** At most one page of the console's widest table: a bulk call stays one short transaction. */
export const MAX_BULK_CARDS = 100;

/**
 * Block several cards with one reason (the console's "Block selected"). The reason follows the single
 * block's rules; ids are distinct card ids.
 */
export const bulkBlockCardsRequest = z.object({
  ids: z
    .array(idInput)
    .min(1)
    .max(MAX_BULK_CARDS)
    .refine((ids) => new Set(ids).size === ids.length, 'ids must be distinct')
    .meta({
      uniqueItems: true,
      description: 'distinct card ids (the same id in another letter case is the same id)',
    }),
  reason: z
    .string()
    .trim()
    .max(500)
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type BulkBlockCardsRequest = z.input<typeof bulkBlockCardsRequest>;

/**
 * One card's outcome, in the order of the request's ids: `blocked` with the card as it is now, or `failed`
 * with the code and message the single block would have answered (the card is then unchanged).
 */
export const bulkBlockCardResult = z.object({
  id: z.uuid(),
  outcome: z.enum(['blocked', 'failed']),
  card: card.nullable(),
  error: z.object({ status: z.number().int(), code: z.string(), message: z.string() }).nullable(),
});
export type BulkBlockCardResult = z.infer<typeof bulkBlockCardResult>;

export const bulkBlockCardsResponse = z.object({
  blocked: z.number().int(),
  failed: z.number().int(),
  results: z.array(bulkBlockCardResult),
});
export type BulkBlockCardsResponse = z.infer<typeof bulkBlockCardsResponse>;
