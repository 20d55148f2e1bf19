import { type Cents, maxBig } from '../../lib/money';

/**
 * What an account can spend or hold now: balance − held − pending (PROGRAMME-API §1), never negative. The one
 * definition over values already read; `availableSql` (balances.sql.ts) is the same rule inside a statement.
 * `lapsed`: held points of holds past their expiry, which keep nothing (issue 15.5): a hold decides with
 * them; a read of the balance, between two sweeps, counts them as held until the sweeper voids them.
 */
export function availableCents(account: {
  balance: Cents;
  held: Cents;
  pending: Cents;
  lapsed?: Cents;
}): Cents {
  return maxBig(account.balance - account.held + (account.lapsed ?? 0n) - account.pending, 0n);
}
