import { type Kysely, sql } from 'kysely';
import { pinnedSql } from '../derived/pinned-sql';

/**
 * Two rollups for the finance report and the dashboard (issue 9, "fast at 10M operations"): the programme's
 * points flow per day and per month without the POS dimension (`points_flow_totals`, written by 017's
 * function, redefined), and the lots' remaining per hour of availability and of expiry
 * (`lots_outstanding_hours`, triggers on `lots`), each filled from what exists. The SQL is
 * `db/derived/026-finance-rollups.sql`, pinned by its SHA-256 as 010 and 017 pin theirs.
 */
const FILE = '026-finance-rollups.sql';
const SHA256 = 'bed6a950a728d706a26621179acdfba3d3f83a48cd2a0def2bd8d6e94485b55a';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw(pinnedSql(FILE, SHA256)).execute(db);
}
