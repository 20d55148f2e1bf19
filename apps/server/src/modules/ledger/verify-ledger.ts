import { sql } from 'kysely';
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
}

/**
 * Proves the cached balances from the ledger: every account's balance must equal the sum of its completed
 * accrual, redemption and adjustment operations, and its held balance the sum of its active holds.
 * Read-only; one pass over operations.
 */
export async function verifyLedger(db: Db): Promise<LedgerReport> {
  const differences = await sql<LedgerDifference & { checked: number }>`
    with ledger as (
      select account_id,
        coalesce(sum(points) filter (
          where status = 'completed' and type in ('accrual', 'redemption', 'adjustment')), 0) as balance,
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
    where type = 'redemption' and status = 'completed'
    group by related_id having count(*) > 1`.execute(db);
  const over = await sql<{ id: string }>`
    select id from receipt_items
    where returned_points > bonus_points or returned_quantity > quantity`.execute(db);
  return {
    accountsChecked: counted.rows[0]?.n ?? 0,
    differences: differences.rows,
    holdsCapturedTwice: doubles.rows.map((r) => r.id),
    overReturnedLines: over.rows.map((r) => r.id),
  };
}

export function ledgerIsSound(report: LedgerReport): boolean {
  return (
    report.differences.length === 0 &&
    report.holdsCapturedTwice.length === 0 &&
    report.overReturnedLines.length === 0
  );
}
