import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';

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

/** Which expired holds to void: one hold, an account's, or a batch the sweeper has locked. */
export type ExpiredHolds = { holdId: string } | { accountId: string } | { holdIds: string[] };

const uuids = (ids: string[]) => sql`select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid`;

function whichHolds(target: ExpiredHolds) {
  if ('holdId' in target) return sql`id = ${target.holdId}::uuid`;
  if ('accountId' in target) return sql`account_id = ${target.accountId}::uuid`;
  return sql`id in (${uuids(target.holdIds)})`;
}

/**
 * The one way an expired hold is voided: the hold marked `voided` (reason "Expired") and its points freed
 * from `held_balance`, in one statement. Only holds still active and past `expires_at` are touched, so a
 * hold captured, released or voided by someone else meanwhile is skipped and its points are freed once.
 * Lock order as in every POS write: hold rows, then the account. Returns the ids of the holds voided (for
 * their `hold.expired` events).
 */
export async function voidExpiredHolds(db: Executor, target: ExpiredHolds): Promise<string[]> {
  const result = await sql<{ id: string }>`
    with v as (
      update operations set status = 'voided', meta = operations.meta || '{"reason": "Expired"}'::jsonb
      where type = 'hold' and status = 'active' and expires_at <= now() and ${whichHolds(target)}
      returning id, account_id, -points as held
    ),
    s as (select account_id, sum(held) as held from v group by account_id),
    a as (
      update accounts set held_balance = accounts.held_balance - s.held
      from s where accounts.id = s.account_id
    )
    select id from v`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * Expired active holds, locked; holds another instance (or a capture) has locked are skipped, and so are
 * `passed` (holds an earlier batch of the same sweep had to leave).
 */
export async function lockExpiredHolds(trx: Tx, limit: number, passed: readonly string[] = []) {
  const result = await sql<{ id: string; account_id: string }>`
    select id, account_id from operations
    where type = 'hold' and status = 'active' and expires_at <= now()
      ${passed.length > 0 ? sql`and id not in (${uuids([...passed])})` : sql``}
    order by expires_at
    limit ${limit}
    for no key update skip locked`.execute(trx);
  return result.rows;
}

/**
 * Locks those of `accountIds` no other transaction holds, and answers which. Never waits: the sweeper locks
 * hold rows before their accounts, and a card's group commit holds the account before a hold row it captures
 * or releases, so waiting here could deadlock with it (PostgreSQL would break that after a second, stalling
 * the card). An account skipped keeps its lapsed holds for the next sweep; every read already counts them as
 * not held.
 */
export async function lockFreeAccounts(trx: Tx, accountIds: string[]): Promise<Set<string>> {
  const result = await sql<{ id: string }>`
    select id from accounts where id in (${uuids(accountIds)})
    for no key update skip locked`.execute(trx);
  return new Set(result.rows.map((r) => r.id));
}
