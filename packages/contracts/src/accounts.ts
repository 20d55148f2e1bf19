import { z } from 'zod';
import {
  hasNoControlCharacter,
  hasVisibleCharacter,
  isoTimestamp,
  listFormat,
  pageQuery,
  sortParam,
} from './common';

export const account = z.object({
  id: z.uuid(),
  clientId: z.string(),
  /** Number of the newest active card, or null ('No card'). */
  activeCardNumber: z.string().nullable(),
  balance: z.number(),
  heldBalance: z.number(),
  /** Points of lots not yet available (earned within the pending period). */
  pendingBalance: z.number(),
  /** balance − heldBalance − pendingBalance, never negative: what a hold may take. */
  availableBalance: z.number(),
  createdAt: isoTimestamp,
});
export type Account = z.infer<typeof account>;

export const createAccountRequest = z.object({
  // The max has its own message: the string's message would answer every issue, and a client ID that is
  // too long was told it is required.
  clientId: z
    .string('Client ID is required')
    .trim()
    .min(1, 'Client ID is required')
    .max(100, 'Client ID must be at most 100 characters')
    .refine(hasVisibleCharacter, 'Client ID is required')
    .refine(
      hasNoControlCharacter,
      'Client ID must not contain tabs, line breaks or other control characters',
    ),
});
export type CreateAccountRequest = z.input<typeof createAccountRequest>;

export const accountSortFields = ['createdAt', 'clientId', 'balance'] as const;

/** `search`: client ID contains the text (case-insensitive). */
export const accountListQuery = pageQuery.extend({
  format: listFormat,
  sort: sortParam(accountSortFields),
});
export type AccountListQuery = z.input<typeof accountListQuery>;
