import { type Kysely, sql } from 'kysely';

/**
 * Member and bulk-credit imports (PROGRAMME-API.md §4) spool each file's parsed rows here as the body
 * streams in, a batch per statement, instead of holding the whole file in the server's memory; the
 * import's transaction then reads them by `import_id` (and can do so again when it is retried, which the
 * request body could not) and deletes them when the import has answered. A row the contract's row schema
 * refused is kept with its error, so the report by line is read from one place.
 *
 * Unlogged: the rows live for one request and are worthless after a crash (PostgreSQL empties the table
 * then), so they are not worth WAL. `created_at` lets an import sweep what a crashed server left.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create unlogged table import_rows (
      import_id uuid not null,
      line integer not null,
      client_id text,
      card_number text,
      points numeric(14, 2),
      expires_at timestamptz,
      reason text,
      error text,
      message text,
      created_at timestamptz not null default now(),
      primary key (import_id, line)
    )
  `.execute(db);
}
