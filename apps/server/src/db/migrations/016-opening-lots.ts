import { type Kysely, sql } from 'kysely';

/**
 * Points lots for the balances that existed before them (PROGRAMME-API §1 "Existing data"): every account
 * with points gets one opening lot of its whole balance, earned at its last credit (its creation if it
 * has none), available at once and never expiring, so Σ remaining = balance holds and the ledger verifies
 * before and after. Runs once, after 015 made the tables; from then on the ledger writes every lot.
 * `lots_epoch` keeps when that was: debits before it took from no lot, so verify-ledger proves the
 * consumptions of the debits made since.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table lots_epoch (started_at timestamptz not null);
    insert into lots_epoch (started_at) values (now());

    insert into lots (account_id, credit_id, earned_at, available_at, expires_at, points, remaining)
    select a.id, null, e.earned_at, e.earned_at, null, a.balance, a.balance
    from accounts a
    cross join lateral (
      select coalesce(max(o.created_at), a.created_at) as earned_at from operations o
      where o.account_id = a.id and o.status = 'completed' and o.points > 0
        and o.type in ('accrual', 'adjustment')
    ) e
    where a.balance > 0;
  `.execute(db);
}
