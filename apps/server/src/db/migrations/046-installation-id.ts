import { type Kysely, sql } from 'kysely';

/**
 * The installation: one row, written once when the database is created, whose id makes each delivery's
 * `webhook-id` unique beyond this database (`evt_<installation id>_<event id>`, modules/events/README.md).
 * An event id alone repeats: a receiver fed by staging and production, or by a database rebuilt from scratch,
 * dropped real events as duplicates of others it had seen under the same number. A physical backup or a dump
 * restored keeps the row, and with it the ids of the events it keeps. 32 hex digits of a random uuid.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table installation (
      only_row boolean primary key default true check (only_row),
      id text not null default replace(gen_random_uuid()::text, '-', '') check (id ~ '^[0-9a-f]{32}$'),
      created_at timestamptz not null default now()
    );
    insert into installation default values;
  `.execute(db);
}
