import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection';

export interface LedgerDifference {
  accountId: string;
  balance: string;
  expectedBalance: string;
  heldBalance: string;
  expectedHeldBalance: string;
}

export interface LedgerReport {
  accountsChecked: number;
  differences: LedgerDifference[];
  /** Holds with more than one completed redemption (a double capture). */
  holdsCapturedTwice: string[];
  /** Receipt lines that gave back more points than they earned. */
  overReturnedLines: string[];
  /** The lots' proof (PROGRAMME-API §1 "Reads"). */
  lots: LotProof;
}

export interface LotProof {
  /** Lots whose remaining is not points − Σ their consumptions, or is below zero. */
  lotsOff: string[];
  /** Accounts whose Σ remaining of their lots is not their balance. */
  accountsOff: string[];
  /**
   * Completed debits (redemptions, returns, expiries) whose consumptions do not sum to their points (those
   * since lots exist — migration 016's `lots_epoch` — and any older-dated one that took from a lot, as a
   * backdated one does), and consumptions of anything else.
   */
  debitsOff: string[];
  /**
   * Accounts whose open holds (active, not lapsed) need more points than their available lots hold: a hold
   * on pending points, which no write may make (available = balance − held − pending) and which every
   * total above would still let through.
   */
  holdsUncovered: string[];
  /**
   * Lots and credits that do not match one to one (PROGRAMME-API §1 "Every credit … creates a lot"): a lot
   * whose credit is missing, not a completed credit, of another account or of other points (a credit from
   * before the epoch may have left a smaller lot: what it still held, as bench:dataset loads them); a lot
   * without a credit that is not an opening lot (migration 016, earned by the epoch); a completed credit of
   * points since the epoch without its lot.
   */
  creditsOff: string[];
  /** Expiry operations that took from a lot not yet expired when they ran ("expiry takes what has expired"). */
  expiriesOff: string[];
}

/** A completed operation that took points: what consumes lots. */
const completedDebit = (o: RawBuilder<unknown>) =>
  sql`${o}.status = 'completed' and ${o}.points < 0 and ${o}.type in ('redemption', 'adjustment', 'expiry')`;

/** A completed operation that gave points: what creates a lot (a credit of 0 points makes none). */
const completedCredit = (o: RawBuilder<unknown>) =>
  sql`${o}.status = 'completed' and ${o}.points > 0 and ${o}.type in ('accrual', 'adjustment')`;

/**
 * The lots against their consumptions and the ledger: each lot's remaining = points − what debits took
 * from it and never below zero; Σ remaining of an account = its balance; every completed debit's
 * consumptions sum to its points (and nothing else consumed a lot); open holds are covered by available lots;
 * lots and credits match one to one; an expiry took only expired lots.
 */
export async function verifyLots(db: Db): Promise<LotProof> {
  const lots = await sql<{ id: string }>`
    select l.id from lots l
    left join (select lot_id, sum(points) as used from lot_consumptions group by lot_id) c on c.lot_id = l.id
    where l.remaining <> l.points - coalesce(c.used, 0) or l.remaining < 0
    order by l.id`.execute(db);
  const accounts = await sql<{ id: string }>`
    select a.id from accounts a
    left join (select account_id, sum(remaining) as remaining from lots group by account_id) l
      on l.account_id = a.id
    where a.balance <> coalesce(l.remaining, 0)
    order by a.id`.execute(db);
  // Two anti-joins rather than one full join over "since the epoch OR consumed": PostgreSQL cannot hash an
  // `in (subquery)` under an OR once it outgrows work_mem, and ran it once per operation (over 10 minutes at
  // 10M operations and a million consumptions). Here every table is read once.
  const debits = await sql<{ id: string }>`
    with c as (select operation_id, sum(points) as points from lot_consumptions group by operation_id)
    select o.id from operations o
    left join c on c.operation_id = o.id
    where ${completedDebit(sql`o`)}
      and o.created_at >= coalesce((select min(started_at) from lots_epoch), '-infinity')
      and (c.operation_id is null or c.points <> -o.points)
    union
    select c.operation_id from c
    left join operations o on o.id = c.operation_id
    where o.id is null or not (${completedDebit(sql`o`)}) or c.points <> -o.points
    order by 1`.execute(db);
  // Lots only become available as time passes and every debit leaves what open holds need (a capture takes
  // at most what it held), so an open hold is always covered by lots available now. A lapsed hold no longer
  // holds anything (issue 15.5), even before the sweeper voids it.
  const uncovered = await sql<{ id: string }>`
    with held as (
      select account_id, sum(-points) as held from operations
      where type = 'hold' and status = 'active' and expires_at > now()
      group by account_id
    ),
    available as (
      select account_id, sum(remaining) as points from lots
      where remaining > 0 and available_at <= now() and account_id in (select account_id from held)
      group by account_id
    )
    select held.account_id as id from held left join available on available.account_id = held.account_id
    where held.held > coalesce(available.points, 0)
    order by 1`.execute(db);
  const credits = await sql<{ id: string }>`
    with epoch as (select coalesce(min(started_at), '-infinity') as at from lots_epoch)
    select l.id from lots l
    left join operations o on o.id = l.credit_id
    where case when l.credit_id is null then l.earned_at > (select at from epoch)
      else o.id is null or not (${completedCredit(sql`o`)}) or o.account_id <> l.account_id
        or o.points < l.points or (o.created_at >= (select at from epoch) and o.points <> l.points) end
    union
    select o.id from operations o
    where ${completedCredit(sql`o`)} and o.created_at >= (select at from epoch)
      and not exists (select from lots l where l.credit_id = o.id)
    order by 1`.execute(db);
  const expiries = await sql<{ id: string }>`
    select distinct o.id from operations o
    join lot_consumptions c on c.operation_id = o.id
    join lots l on l.id = c.lot_id
    where o.type = 'expiry' and (l.expires_at is null or l.expires_at > o.created_at)
    order by 1`.execute(db);
  return {
    lotsOff: lots.rows.map((r) => r.id),
    accountsOff: accounts.rows.map((r) => r.id),
    debitsOff: debits.rows.map((r) => r.id),
    holdsUncovered: uncovered.rows.map((r) => r.id),
    creditsOff: credits.rows.map((r) => r.id),
    expiriesOff: expiries.rows.map((r) => r.id),
  };
}

/**
 * Proves the cached balances from the ledger: every account's balance must equal the sum of its completed
 * accrual, redemption, adjustment and expiry operations, and its held balance the sum of its active holds;
 * then the lots (`verifyLots`). Read-only.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const differences = await sql<LedgerDifference & { checked: number }>`
    with ledger as (
      select account_id,
        coalesce(sum(points) filter (
          where status = 'completed' and type in ('accrual', 'redemption', 'adjustment', 'expiry')), 0) as balance,
        coalesce(sum(-points) filter (where status = 'active' and type = 'hold'), 0) as held
      from operations where account_id is not null
      group by account_id
    )
    select a.id as "accountId", a.balance::text as balance,
      coalesce(l.balance, 0)::numeric(14, 2)::text as "expectedBalance",
      a.held_balance::text as "heldBalance", coalesce(l.held, 0)::numeric(14, 2)::text as "expectedHeldBalance"
    from accounts a left join ledger l on l.account_id = a.id
    where a.balance <> coalesce(l.balance, 0) or a.held_balance <> coalesce(l.held, 0)
    order by a.id`.execute(db);
  const counted = await sql<{ n: number }>`select count(*)::int as n from accounts`.execute(db);
  const doubles = await sql<{ id: string }>`
    select related_id as id from operations
    where type = 'redemption' and status = 'completed' and related_id is not null
    group by related_id having count(*) > 1`.execute(db);
  const over = await sql<{ id: string }>`
    select id from receipt_items
    where returned_points > bonus_points or returned_quantity > quantity`.execute(db);
  return {
    accountsChecked: counted.rows[0]?.n ?? 0,
    differences: differences.rows,
    holdsCapturedTwice: doubles.rows.map((r) => r.id),
    overReturnedLines: over.rows.map((r) => r.id),
    lots: await verifyLots(db),
  };
}

export function ledgerIsSound(report: LedgerReport): boolean {
  return (
    report.differences.length === 0 &&
    report.holdsCapturedTwice.length === 0 &&
    report.overReturnedLines.length === 0 &&
    report.lots.lotsOff.length === 0 &&
    report.lots.accountsOff.length === 0 &&
    report.lots.debitsOff.length === 0 &&
    report.lots.holdsUncovered.length === 0 &&
    report.lots.creditsOff.length === 0 &&
    report.lots.expiriesOff.length === 0
  );
}
