import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { pendingOf } from './lots.sql';

/** The accounts of one expiry batch: those it locked, and those another transaction held (skipped). */
export interface DueAccounts {
  locked: string[];
  skipped: string[];
}

/**
 * Accounts that have lots whose expiry has come, locked in id order (FOR NO KEY UPDATE, like every
 * balance change); accounts another sweeper or a write holds are skipped, and answered as such: the run
 * passes over them (`passed`) and takes the next ones, so a few held accounts at the front of the expiry
 * order never stop it (an import holds every account of its file while it runs). The due lots are found from
 * the first `limit` of the expiry index, of accounts with points to give (balance − held − pending > 0, as
 * read before the lock): an account whose due points all serve open holds would otherwise fill every batch
 * and hold the others back until its holds close.
 */
export async function lockDueAccounts(
  trx: Tx,
  limit: number,
  passed: readonly string[] = [],
): Promise<DueAccounts> {
  const result = await sql<{ id: string; locked: boolean }>`
    with due as (
      select distinct d.account_id as id from (
        select l.account_id from lots l join accounts r on r.id = l.account_id
        where l.remaining > 0 and l.expires_at <= now()
          and r.balance - r.held_balance - ${pendingOf(sql.ref('r.id'))} > 0
          and l.account_id not in (select jsonb_array_elements_text(${JSON.stringify(passed)}::jsonb)::uuid)
        order by l.expires_at limit ${limit}
      ) d
    ),
    locked as (
      select a.id from accounts a where a.id in (select id from due)
      order by a.id
      for no key update of a skip locked
    )
    select due.id, locked.id is not null as locked from due left join locked on locked.id = due.id`.execute(
    trx,
  );
  const rows = result.rows;
  return {
    locked: rows.filter((r) => r.locked).map((r) => r.id),
    skipped: rows.filter((r) => !r.locked).map((r) => r.id),
  };
}

/**
 * Expires the due lots of locked accounts, in one statement: per account, due lots soonest first up to
 * what the account can give without leaving its holds uncovered (balance − held − pending: PROGRAMME-API
 * §1, points an active hold needs stay until it closes); one `expiry` operation per account (negative
 * points, meta.lots = how many lots), the lots' consumptions and the balance. Not `availableSql`, which
 * gives back what lapsed holds still show as held (a hold decides on it once it has voided them): here
 * `held_balance` still counts a hold that lapsed after the run's sweep, and taking its points would break
 * `held_balance <= balance` and roll the whole batch back (lots.test.ts). It must run in a statement
 * after the lock, so it reads what any write that held the accounts before committed: a lot expires once.
 * Answers the expiry operations.
 */
export async function expireDueLots(
  trx: Tx,
  accountIds: string[],
): Promise<Array<{ id: string; points: string }>> {
  const result = await sql<{ id: string; points: string }>`
    with acc as (
      select a.id, a.balance - a.held_balance - ${pendingOf(sql.ref('a.id'))} as room
      from accounts a
      where a.id in (select jsonb_array_elements_text(${JSON.stringify(accountIds)}::jsonb)::uuid)
    ),
    due as (
      select l.id, l.account_id, l.remaining, sum(l.remaining) over (partition by l.account_id
          order by l.expires_at, l.earned_at, l.id rows between unbounded preceding and current row) as upto
      from lots l
      where l.account_id in (select id from acc) and l.remaining > 0 and l.expires_at <= now()
    ),
    took as (
      select due.id, due.account_id, least(due.remaining, acc.room - (due.upto - due.remaining)) as take
      from due join acc on acc.id = due.account_id
    ),
    taken as (select * from took where take > 0),
    per as (select account_id, sum(take) as points, count(*) as lots from taken group by account_id),
    op as (
      insert into operations (type, status, points, account_id, card_id, card_number, meta)
      select 'expiry', 'completed', -per.points, per.account_id, c.id, c.number,
        jsonb_build_object('lots', per.lots)
      from per
      left join lateral (
        select id, number from cards where account_id = per.account_id and status = 'active'
        order by created_at desc, id desc limit 1
      ) c on true
      returning id, account_id, -points as points
    ),
    used as (
      update lots set remaining = lots.remaining - taken.take from taken where lots.id = taken.id
    ),
    logged as (
      insert into lot_consumptions (operation_id, lot_id, points)
      select op.id, taken.id, taken.take from taken join op on op.account_id = taken.account_id
    ),
    debited as (
      update accounts set balance = accounts.balance - op.points from op where accounts.id = op.account_id
    )
    select id, points::text as points from op`.execute(trx);
  return result.rows;
}
