import type { Kysely } from 'kysely';

/** Reserved slot, filled in by its issue before anything lands. */
export async function up(_db: Kysely<unknown>): Promise<void> {}
