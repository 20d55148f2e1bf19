import { sql } from 'kysely';

/**
 * `= any($1::uuid[])` for a list of values, as the right side of `=`: one statement text whatever the list's
 * length, so the statement is prepared once. `in ($1, …, $n)` made a text per length (db/prepared-statements.ts
 * names a text seen twice and stops at 400 names): the operations of an event batch, the cards or receipts
 * of a page each took a name per count they came in. The plan is the same: PostgreSQL turns `in (…)` into
 * `= any(array[…])`.
 */
export const anyUuid = (ids: readonly string[]) => sql<string>`any(${[...ids]}::uuid[])`;

/** As anyUuid, for text values (card numbers). */
export const anyText = (values: readonly string[]) => sql<string>`any(${[...values]}::text[])`;
