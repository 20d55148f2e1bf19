import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Tx } from '../../db/transaction';

/**
 * The spool of an import's parsed rows (migration 022, `import_rows`): written a batch at a time while the
 * body streams in, read by the import's transaction, deleted when the import has answered.
 */

/** One parsed line of a file: the row's values, or the error that kept it out. */
export interface ImportRow {
  line: number;
  clientId: string | null;
  cardNumber: string | null;
  points: string | null;
  expiresAt: string | null;
  reason: string | null;
  error: string | null;
  message: string | null;
}

/** A batch of rows as one array per column (bound as parameters, unnested by PostgreSQL). */
export type ImportRowColumns = { [K in keyof ImportRow]: ImportRow[K][] };

export function emptyColumns(): ImportRowColumns {
  return {
    line: [],
    clientId: [],
    cardNumber: [],
    points: [],
    expiresAt: [],
    reason: [],
    error: [],
    message: [],
  };
}

export async function insertImportRows(db: Db, importId: string, rows: ImportRowColumns): Promise<void> {
  await sql`
    insert into import_rows (import_id, line, client_id, card_number, points, expires_at, reason, error, message)
    select ${importId}::uuid, * from unnest(
      ${rows.line}::integer[], ${rows.clientId}::text[], ${rows.cardNumber}::text[],
      ${rows.points}::numeric[], ${rows.expiresAt}::timestamptz[], ${rows.reason}::text[],
      ${rows.error}::text[], ${rows.message}::text[])`.execute(db);
}

/** The import's rows in the spool now. */
export async function countImportRows(trx: Tx, importId: string): Promise<number> {
  const counted = await sql<{ n: number }>`
    select count(*)::int as n from import_rows where import_id = ${importId}::uuid`.execute(trx);
  return counted.rows[0]!.n;
}

export async function deleteImportRows(db: Db, importId: string): Promise<void> {
  await sql`delete from import_rows where import_id = ${importId}::uuid`.execute(db);
}

/**
 * Rows a server left when it stopped in the middle of an import (a finished import deletes its own). No
 * import runs for an hour (its body is at most IMPORT_MAX_BYTES), so older rows belong to no one.
 */
export async function sweepAbandonedImportRows(db: Db): Promise<void> {
  await sql`delete from import_rows where created_at < now() - interval '1 hour'`.execute(db);
}
