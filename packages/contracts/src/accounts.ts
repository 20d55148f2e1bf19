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

/**
 * The one form of a client ID, stored, compared and keyed (an erased member's): what looks the same is the same
 * member. `José` typed as é (NFC) or as e + a combining accent (NFD, as macOS files often carry it), or with a
 * zero-width space or a no-break space pasted in, made a second account beside the first, and brought an erased
 * member back. Format characters (\p{Cf}: zero-width spaces and joiners, a byte order mark, bidi marks) are
 * removed, every other Unicode space (\p{Zs}) is an ordinary space, then NFC, then trimmed. NFC comes after
 * the removal so that a mark a zero-width space kept from its letter composes with it, and the result is
 * its own canonical form (NFC maps a space only to a space). Migration 044 brought the stored IDs to it.
 */
export function canonicalClientId(value: string): string {
  return value
    .replace(/\p{Cf}/gu, '')
    .replace(/\p{Zs}/gu, ' ')
    .normalize('NFC')
    .trim();
}

/**
 * A client ID as it comes in (an account created, a member import row): in its canonical form before any
 * check, so its length and its visible characters are the stored ID's. `overwrite`, not a transform: the API
 * document still says a string.
 */
export function clientIdInput(messages: {
  required: string;
  tooLong: string;
  control: string;
  dots?: string;
}) {
  return (
    z
      .string(messages.required)
      .overwrite(canonicalClientId)
      .min(1, messages.required)
      .max(100, messages.tooLong)
      .refine(hasVisibleCharacter, messages.required)
      .refine(hasNoControlCharacter, messages.control)
      // A client ID is looked up in a path (GET /api/v1/clients/{id}/lookup), where a client's URL
      // normalisation removes a `.` or `..` segment: such an account could never be found (as a SKU, rulesets.ts).
      .refine((id) => id !== '.' && id !== '..', messages.dots ?? "Client ID cannot be '.' or '..'")
      .meta({ not: { pattern: String.raw`^\s*\.\.?\s*$` } })
  );
}

export const createAccountRequest = z.object({
  // The max has its own message: the string's message would answer every issue, and a client ID that is
  // too long was told it is required.
  clientId: clientIdInput({
    required: 'Client ID is required',
    tooLong: 'Client ID must be at most 100 characters',
    control: 'Client ID must not contain tabs, line breaks or other control characters',
  }),
});
export type CreateAccountRequest = z.input<typeof createAccountRequest>;

export const accountSortFields = ['createdAt', 'clientId', 'balance'] as const;

/**
 * `search`: client ID contains the text (case-insensitive), the text in the client ID's canonical form
 * (`canonicalClientId`), so `José` typed either way finds the one account.
 */
export const accountListQuery = pageQuery.extend({
  search: z.string().overwrite(canonicalClientId).max(200).optional(),
  format: listFormat,
  sort: sortParam(accountSortFields),
});
export type AccountListQuery = z.input<typeof accountListQuery>;
