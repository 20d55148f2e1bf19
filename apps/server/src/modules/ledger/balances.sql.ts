import { type RawBuilder, sql } from 'kysely';
import { lapsedHeld } from './expired-holds.repository';
import { pendingOf } from './lots.sql';

/**
 * What an account can hold, as SQL: balance − held − pending (PROGRAMME-API §1), where a lapsed hold no
 * longer counts as held; never negative. `availableCents` (available.ts) is the same rule over values
 * already read. Inside a write's statement the subqueries see the account's lots and holds as they were
 * before the statement: `pendingAdded` is what the statement itself adds to its pending lots (negative:
 * takes from them).
 */
export function availableSql(
  accountId: RawBuilder<unknown>,
  balance: RawBuilder<unknown>,
  held: RawBuilder<unknown>,
  pendingAdded: RawBuilder<unknown> = sql`0`,
): RawBuilder<string> {
  return sql<string>`greatest(${balance} - ${held} + ${lapsedHeld(accountId)} - (${pendingOf(accountId)} + ${pendingAdded}), 0)`;
}

/**
 * The balances an operation's event carries (`balance`, `availableBalance`, wire numbers) after the write,
 * over the write statement's `a` step: its UPDATE of the account, returning `balance` and `held_balance`
 * (`accountId`: the account's id, or SQL naming it when the step updates several, e.g. `a.id`).
 * Read in the statement, they cost the write no round trip under the account's lock. The lapsed holds and
 * pending lots are read again here rather than taken from the write's lock statement: that statement's
 * snapshot predates its wait for the lock, so a sweep committed meanwhile would be missing from it.
 * `later`: in a batch with several writes of one account, what the writes after this one moved (added back
 * to the `a` step's final figures: `laterOfAccount`).
 */
export function balancesAfter(
  accountId: string | RawBuilder<unknown>,
  pendingAdded?: RawBuilder<unknown>,
  later?: { balance?: RawBuilder<unknown>; held?: RawBuilder<unknown> },
): RawBuilder<unknown> {
  const account = typeof accountId === 'string' ? sql`${accountId}::uuid` : accountId;
  const balance = later?.balance ? sql`(a.balance + ${later.balance})` : sql`a.balance`;
  const held = later?.held ? sql`(a.held_balance + ${later.held})` : sql`a.held_balance`;
  const available = availableSql(account, balance, held, pendingAdded);
  return sql`jsonb_build_object('balance', trim_scale(${balance}), 'availableBalance', trim_scale(${available}))`;
}
