import { z } from 'zod';
import { account } from './accounts';
import { cardListItem } from './cards';
import { MAX_PAGE_SIZE } from './common';
import { operation } from './operations';

export const CLIENT_LOOKUP_PAGE_SIZE = 10;

/**
 * The search text: a card number (exact), a client ID (exact, any case; as typed, else in its canonical form:
 * `canonicalClientId`) or an account id.
 */
export const clientLookupParams = z.object({
  id: z.string().trim().min(1, 'Please enter a client ID, card number, or account ID').max(200),
});

const sectionPage = z.coerce.number().int().min(0).default(0);
const sectionSize = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(CLIENT_LOOKUP_PAGE_SIZE);

export const clientLookupQuery = z.object({
  accountsPage: sectionPage,
  accountsSize: sectionSize,
  cardsPage: sectionPage,
  cardsSize: sectionSize,
  operationsPage: sectionPage,
  operationsSize: sectionSize,
});
export type ClientLookupQuery = z.input<typeof clientLookupQuery>;

const section = <T extends z.ZodType>(item: T) =>
  z.object({ content: z.array(item), total: z.number().int() });

export const clientLookupResponse = z.object({
  accounts: section(account),
  cards: section(cardListItem),
  operations: section(operation),
});
export type ClientLookupResponse = z.infer<typeof clientLookupResponse>;
