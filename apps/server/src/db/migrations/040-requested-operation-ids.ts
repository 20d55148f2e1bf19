import { type Kysely, sql } from 'kysely';

/**
 * A POS write refused before it could take its operationId (validation errors, OPERATION_ID_ALREADY_USED
 * and _USED_BY_OTHER_POS, purchases too old) is recorded with operation_id null and the id the till sent in
 * meta.operationId (pos-failures-hook.ts). The Operations search finds those rows by that id too, a prefix
 * like the operation_id it sits beside in the search's OR: this index is its arm of the BitmapOr. Partial:
 * only these rows (failures, few beside the table), so it costs the other writes nothing. COLLATE "C" as
 * operation_id's own, so a LIKE prefix is a range of it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index operations_requested_id_idx on operations (((meta ->> 'operationId') collate "C"))
      where operation_id is null and meta ? 'operationId'
  `.execute(db);
}
