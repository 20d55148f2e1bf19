import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';

/** Expired active holds, locked; holds another instance (or a capture) has locked are skipped. */
export async function lockExpiredHolds(trx: Tx, limit: number) {
  const result = await sql<{ id: string; account_id: string; held: string }>`
    select id, account_id, -points as held from operations
    where type = 'hold' and status = 'active' and expires_at <= now()
    order by expires_at
    limit ${limit}
    for no key update skip locked`.execute(trx);
  return result.rows;
}

/**
 * Void the holds and give their points back. Accounts are locked in id order first: this is the only
 * write that touches several accounts, and a fixed order means two sweepers cannot deadlock.
 */
export async function voidHolds(trx: Tx, holdIds: string[], accountIds: string[]): Promise<void> {
  await sql`
    select id from accounts where id in (${uuids(accountIds)})
    order by id for no key update`.execute(trx);
  await sql`
    with v as (
      update operations set status = 'voided', meta = operations.meta || '{"reason": "Expired"}'::jsonb
      where id in (${uuids(holdIds)}) and status = 'active'
      returning account_id, -points as held
    ),
    s as (select account_id, sum(held) as held from v group by account_id)
    update accounts set held_balance = accounts.held_balance - s.held
    from s where accounts.id = s.account_id`.execute(trx);
}

const uuids = (ids: string[]) => sql`select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid`;
