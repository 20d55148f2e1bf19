import { type RawBuilder, sql } from 'kysely';

/**
 * The lot bookkeeping of every ledger write (PROGRAMME-API §1), as SQL fragments the writes' persist
 * statements embed, so a credit's lot and a debit's consumptions are set-based parts of the one statement
 * that writes the operation — no round trip per lot. The account is locked before the statement runs, so
 * the lots it reads are the ones it changes.
 */

/** An account's points earned but not yet available (lots still in their pending period). */
export function pendingOf(accountId: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`coalesce((select sum(pl.remaining) from lots pl
    where pl.account_id = ${accountId} and pl.remaining > 0 and pl.available_at > now()), 0)`;
}

/**
 * The periods of a lot earned now, from the `points` settings: `pending` (0 days when unset) and `expiry`
 * (null when unset: the lot never expires). A one-row relation to cross join. A day is 24 hours, as the
 * dates are UTC instants: `interval '1 day'` would be added on the session time zone's calendar, an hour
 * short or long across its DST change (a server whose time zone is Europe/Berlin dated lots so).
 */
const periods = sql`(select
    coalesce((select value from settings where key = 'points.pending_days'), 0) * interval '24 hours' as pending,
    (select value from settings where key = 'points.expiry_days') * interval '24 hours' as expiry) lp`;

/**
 * The INSERT of the lots of credits: `source` is a relation with `id` (the credit operation),
 * `account_id`, `points` and `earned_at`, and optionally `expires_at` (an import's own date, which wins
 * over the setting). A credit of 0 points (a receipt of excluded SKUs) makes no lot.
 */
export function insertCreditLots(source: RawBuilder<unknown>, withOwnExpiry = false): RawBuilder<unknown> {
  const computed = sql`s.earned_at + lp.pending + lp.expiry`;
  // An expiry given before the lot is available would mean the points were never spendable: the lot
  // expires when it becomes available instead.
  const expires = withOwnExpiry
    ? sql`case when s.expires_at is null then ${computed} else greatest(s.expires_at, s.earned_at + lp.pending) end`
    : computed;
  return sql`insert into lots (account_id, credit_id, earned_at, available_at, expires_at, points, remaining)
    select s.account_id, s.id, s.earned_at, s.earned_at + lp.pending, ${expires}, s.points, s.points
    from ${source} s cross join ${periods}
    where s.points > 0
    returning account_id, available_at, remaining`;
}

export interface Consumption {
  accountId: string;
  /** Positive exact decimal text: the debit's points, all of which are taken from lots. */
  points: string;
  /** The debit operation's id, as SQL (a value or a subquery on the statement's operation step). */
  operationId: RawBuilder<unknown>;
  /** A return: the accrual whose lot is taken back first, even while pending. */
  returnOf?: string;
}

/**
 * Several debits of one statement (a set-based batch): `debits` is a relation with `account_id`, `points`
 * (positive), `operation_id` and `ord` (the debit's place in the batch: an account's debits take its lots in
 * that order, as they would one after another alone); `accountIds` names those accounts again as an array, so
 * the plan reads their lots by index whatever it estimates of the relation.
 */
export interface Consumptions {
  debits: RawBuilder<unknown>;
  accountIds: readonly string[];
}

/**
 * CTE steps (`lc_debit`, `lc_lot`, `lc_take`, `lc_used`, `lc_log`) that take each debit's points from its
 * account's lots and record what each gave (`lc_take.pending`: the lot was still pending, which an event's
 * balances need; `lc_take.account_id`: whose). The order is a capture's — available lots before pending ones,
 * soonest expiry first (never-expiring last), then oldest — with a return's own lot in front, per account (one
 * debit, or a batch's `Consumptions`: the same order, written once). One pass of running sums: an account's
 * lots in that order and its debits in theirs each cover a range of points, and a debit takes from each lot
 * what their ranges share, so a second debit of the account starts where the first stopped.
 */
export function consumeLots(c: Consumption | Consumptions): RawBuilder<unknown> {
  const one = 'accountId' in c;
  const first = one && c.returnOf ? sql`(l.credit_id is not distinct from ${c.returnOf}::uuid) desc,` : sql``;
  const debits = one
    ? sql`(select ${c.accountId}::uuid as account_id, ${c.points}::numeric as points, ${c.operationId} as operation_id,
        1 as ord)`
    : c.debits;
  const accounts = one ? sql`${c.accountId}::uuid` : sql`any(${c.accountIds}::uuid[])`;
  return sql`lc_debit as (
      select d.account_id, d.operation_id, d.points,
        sum(d.points) over (partition by d.account_id order by d.ord) as upto
      from ${debits} d
    ),
    lc_lot as (
      select l.id, l.account_id, l.available_at > now() as pending, l.remaining, sum(l.remaining) over w as upto
      from lots l
      where l.account_id = ${accounts} and l.remaining > 0
      window w as (partition by l.account_id order by ${first} (l.available_at > now()), l.expires_at, l.earned_at,
        l.id rows between unbounded preceding and current row)
    ),
    lc_take as (
      select * from (
        select l.id, l.account_id, d.operation_id, l.pending,
          least(l.upto, d.upto) - greatest(l.upto - l.remaining, d.upto - d.points) as take
        from lc_debit d join lc_lot l on l.account_id = d.account_id
      ) t
      where t.take > 0
    ),
    lc_used as (
      update lots set remaining = lots.remaining - u.take
      from (select id, sum(take) as take from lc_take group by id) u
      where lots.id = u.id
    ),
    lc_log as (
      insert into lot_consumptions (operation_id, lot_id, points)
      select lc_take.operation_id, lc_take.id, lc_take.take from lc_take
    )`;
}
