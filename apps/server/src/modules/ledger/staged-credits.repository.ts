import { erasedClientId, isErasedClientIdOf } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { insertCreditLots } from './lots.sql';

/**
 * Credits of a file import, posted set-based from the import's staging table (`imports.repository.ts`):
 * every row with `post` becomes one completed `adjustment`, and each account's balance moves by the sum of
 * its rows, a batch of rows per statement (with a lot per credit, dated by the row's `expiresAt` when it
 * has one), which answers the adjustments' ids in file order. The table is a temporary one whose name the
 * caller passes.
 */

/** Locks the accounts the rows credit, in id order, so two files (or a file and a till) never deadlock. */
export async function lockStagedAccounts(trx: Tx, stage: string): Promise<void> {
  await sql`
    select a.id from accounts a
    where a.id in (select account_id from ${sql.table(stage)} where post)
    order by a.id for no key update`.execute(trx);
}

/**
 * Rows of accounts whose member's data was erased: refused (ACCOUNT_ERASED), not posted, as a manual accrual
 * is (`adjustmentRefusal`). Erased accounts are found by the contract's own test (`isErasedClientIdOf`) over
 * the few whose client ID starts as an erased one does, so a file's other accounts are never read into memory.
 */
export async function refuseErasedAccounts(trx: Tx, stage: string): Promise<void> {
  // `erasedClientId` with no digits: the prefix every erased client ID starts with ('erased-').
  const prefix = erasedClientId('', 0);
  const candidates = await sql<{ id: string; client_id: string }>`
    select a.id, a.client_id from accounts a
    where a.id in (select account_id from ${sql.table(stage)} where post)
      and a.client_id like ${`${prefix}%`}`.execute(trx);
  const erased = candidates.rows.filter((a) => isErasedClientIdOf(a.client_id, a.id)).map((a) => a.id);
  if (erased.length === 0) return;
  await sql`
    update ${sql.table(stage)} set error = 'ACCOUNT_ERASED', post = false
    where post and account_id = any(${erased}::uuid[])`.execute(trx);
}

/** Rows of accounts whose balance would pass `maxBalance` with all their rows: refused, not posted. */
export async function refuseOverLimit(trx: Tx, stage: string, maxBalance: string): Promise<void> {
  await sql`
    update ${sql.table(stage)} s set error = 'BALANCE_LIMIT_EXCEEDED', post = false
    from (
      select a.id from accounts a join ${sql.table(stage)} r on r.account_id = a.id and r.post
      group by a.id, a.balance having a.balance + sum(r.points) > ${maxBalance}::numeric
    ) over
    where s.account_id = over.id and s.post`.execute(trx);
}

/**
 * Posts the next `limit` rows with `post` after line `afterLine`, in file order, and answers their
 * adjustments' ids and the last line posted (none: nothing was left). A file is posted a batch per
 * statement, so what the server holds of it is one batch of ids, whatever the file's size.
 */
export async function insertStagedAdjustments(
  trx: Tx,
  w: { stage: string; meta: Record<string, unknown>; createdBy: string; afterLine: number; limit: number },
): Promise<{ ids: string[]; lastLine: number | undefined }> {
  // The booking card is the account's newest active card, as for a manual accrual (findBookingCard),
  // found for all the batch's accounts at once (a per-row lookup can be planned over the wrong index
  // while a fresh database has no statistics).
  const posted = await sql<{ id: string; line: number }>`
    with batch as (
      select line, account_id, points, reason, expires_at from ${sql.table(w.stage)}
      where post and line > ${w.afterLine} order by line limit ${w.limit}
    ), booking as (
      select distinct on (account_id) account_id, id, number from cards
      where account_id in (select account_id from batch) and status = 'active'
      order by account_id, created_at desc, id desc
    ), o as (
      insert into operations (type, status, points, account_id, card_id, card_number, meta, created_by)
      select 'adjustment', 'completed', s.points, s.account_id, c.id, c.number,
        ${JSON.stringify(w.meta)}::jsonb || jsonb_strip_nulls(jsonb_build_object(
          'line', s.line, 'reason', s.reason, 'expiresAt', s.expires_at)),
        ${w.createdBy}
      from batch s
      left join booking c on c.account_id = s.account_id
      order by s.line
      returning id, account_id, points, (meta ->> 'line')::integer as line, created_at as earned_at,
        (meta ->> 'expiresAt')::timestamptz as expires_at
    ), lot as (
      ${insertCreditLots(sql`o`, true)}
    ), credit as (
      select account_id, sum(points) as points from o group by account_id
    ), credited as (
      update accounts a set balance = a.balance + credit.points
      from credit where a.id = credit.account_id
    )
    select id, line from o order by line`.execute(trx);
  return { ids: posted.rows.map((r) => r.id), lastLine: posted.rows.at(-1)?.line };
}
