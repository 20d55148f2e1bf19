import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';

/**
 * A hold is expired the moment its `expires_at` passes (issue 15.5), but `accounts.held_balance` (the
 * cache of the active holds, ARCHITECTURE.md "Ledger rules") only drops when the hold is voided: by the
 * sweeper, or by the write that finds it lapsed. Until then, every read of what is held subtracts these
 * points; the sweeper only tidies. Served by operations_active_holds_idx (few holds are ever lapsed and
 * not yet swept).
 */
export function lapsedHeld(accountId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`coalesce((select sum(-lh.points) from operations lh
    where lh.type = 'hold' and lh.status = 'active' and lh.expires_at <= now()
      and lh.account_id = ${accountId}), 0)`;
}

/** Points of all lapsed holds not voided yet, for totals that are summed from held_balance. */
export async function totalLapsedHeld(db: Executor): Promise<string> {
  const result = await sql<{ held: string }>`
    select coalesce(sum(-points), 0)::text as held from operations
    where type = 'hold' and status = 'active' and expires_at <= now()`.execute(db);
  return result.rows[0]!.held;
}

/**
 * Voids the account's lapsed holds and frees their points, as one statement in the lock order of every
 * POS write (hold rows, then the account). A hold the sweeper is voiding at the same time is waited for
 * and then skipped (it is no longer active), so its points are freed once.
 */
export async function voidLapsedHolds(db: Executor, accountId: string): Promise<void> {
  await sql`
    with h as (
      update operations set status = 'voided', meta = operations.meta || '{"reason": "Expired"}'::jsonb
      where type = 'hold' and status = 'active' and expires_at <= now() and account_id = ${accountId}::uuid
      returning -points as held
    ),
    s as (select sum(held) as held from h)
    update accounts set held_balance = accounts.held_balance - s.held
    from s where accounts.id = ${accountId}::uuid and s.held is not null`.execute(db);
}
