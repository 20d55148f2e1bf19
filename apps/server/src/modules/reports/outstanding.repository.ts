import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';

export interface LotsOutstanding {
  /** Σ remaining of lots not available yet (numeric as text). */
  pending: string;
  /** Σ remaining of lots expiring within 30 days, overdue ones not swept yet included (as the forecast). */
  expiring30Days: string;
}

/**
 * What the programme's lots owe now (PROGRAMME-API §1, issue 9), for the finance report's outstanding and
 * the dashboard's 'Expiring (30d)', in one statement (one snapshot). The hours after the current one come
 * from `lots_outstanding_hours` (migration 026): a few rows per hour whatever the number of lots. The rest
 * is read from the lots themselves through their partial indexes, and is small: the lots becoming available
 * later this hour (`lots_pending_idx`); the lots expiring before the next hour, overdue ones the sweeper
 * has not reached yet included, as the forecast counts them; and those expiring in the last partial hour
 * of the 30 days (`lots_due_idx`).
 */
export async function lotsOutstanding(db: Executor): Promise<LotsOutstanding> {
  // Plain expressions rather than a CTE of them, so each is an index bound the planner can see.
  const nextHour = sql`(derived_bucket('hour', now()) + interval '1 hour')`;
  // 30 days of 24 hours, as lots are dated (see `expiryForecast`).
  const until = sql`(now() + interval '720 hours')`;
  const lastHour = sql`derived_bucket('hour', now() + interval '720 hours')`;
  const { rows } = await sql<LotsOutstanding>`
    select
      ((select coalesce(sum(remaining), 0) from lots_outstanding_hours
          where kind = 'available' and bucket >= ${nextHour})
        + (select coalesce(sum(remaining), 0) from lots
          where remaining > 0 and available_at > now() and available_at < ${nextHour}))::text as pending,
      ((select coalesce(sum(remaining), 0) from lots_outstanding_hours
          where kind = 'expires' and bucket >= ${nextHour} and bucket < ${lastHour})
        + (select coalesce(sum(remaining), 0) from lots
          where remaining > 0 and expires_at is not null and expires_at < ${nextHour})
        + (select coalesce(sum(remaining), 0) from lots
          where remaining > 0 and expires_at is not null and expires_at >= ${lastHour}
            and expires_at <= ${until}))::text as "expiring30Days"`.execute(db);
  return rows[0] ?? { pending: '0', expiring30Days: '0' };
}

/** Raw sums over every lot: what `lotsOutstanding` must equal (its test). */
export async function lotsOutstandingReference(db: Executor): Promise<LotsOutstanding> {
  const { rows } = await sql<LotsOutstanding>`
    select
      (select coalesce(sum(remaining), 0) from lots
        where remaining > 0 and available_at > now())::text as pending,
      (select coalesce(sum(remaining), 0) from lots
        where remaining > 0 and expires_at is not null and expires_at <= now() + interval '720 hours')::text
        as "expiring30Days"`.execute(db);
  return rows[0] ?? { pending: '0', expiring30Days: '0' };
}

/** Recomputes `lots_outstanding_hours` from the lots (after a bulk load that bypassed the triggers). */
export async function rebuildLotsOutstanding(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Writers wait, so none falls between this read and the triggers that follow.
    await sql`lock table lots in share mode`.execute(trx);
    await sql`select derived_rebuild_lots_outstanding()`.execute(trx);
  });
}
