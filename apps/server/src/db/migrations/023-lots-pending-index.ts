import { type Kysely, sql } from 'kysely';

/**
 * The programme's pending points (finance outstanding, issue 9) sum the lots not available yet. Without an
 * index that read every lot with points left, which at a million members is most of the table on each
 * report. This partial index holds only lots with points left, by the day they become available, so the
 * sum reads just the pending ones (a pending period's worth of credits).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index lots_pending_idx on lots (available_at) where remaining > 0`.execute(db);
}
