import { sql } from 'kysely';
import type { Executor } from '../../db/executor';

export interface LotsOutstanding {
  /** Σ remaining of lots not available yet (numeric as text). */
  pending: string;
  /** Σ remaining of lots expiring within 30 days, overdue ones not swept yet included (as the forecast). */
  expiring30Days: string;
}

/**
 * What the programme's lots owe now (PROGRAMME-API §1, issue 9), for the finance report's outstanding and
 * the dashboard's 'Expiring (30d)'. The expiring sum reads the sweeper's partial index (`lots_due_idx`);
 * the pending one reads `lots_pending_idx` (migration 023): only lots not available yet.
 */
export async function lotsOutstanding(db: Executor): Promise<LotsOutstanding> {
  const { rows } = await sql<LotsOutstanding>`
    select
      (select coalesce(sum(remaining), 0) from lots
        where remaining > 0 and available_at > now())::text as pending,
      (select coalesce(sum(remaining), 0) from lots
        where remaining > 0 and expires_at is not null and expires_at <= now() + interval '30 days')::text
        as "expiring30Days"`.execute(db);
  return rows[0] ?? { pending: '0', expiring30Days: '0' };
}
