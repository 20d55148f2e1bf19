import { type Kysely, sql } from 'kysely';

/**
 * Each event's own random message id, the `webhook-id` of its deliveries (`evt_<message id>`), in place of
 * migration 046's `evt_<installation id>_<event id>`. A dump or backup keeps the installation's id and rewinds
 * the events' id sequence: a staging copy made from production, or production rebuilt from a backup after it
 * had sent later events, numbered new events as production had numbered others, under the same installation,
 * so a receiver that dedupes by `webhook-id` (PROGRAMME-API §5) dropped them as seen (7 ids carried two
 * events each in the review's run). A random id drawn at insert is restored only with the very event it
 * belongs to. The installation table goes: nothing else reads it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table events add column message_id uuid not null default gen_random_uuid()`.execute(db);
  await sql`drop table installation`.execute(db);
}
