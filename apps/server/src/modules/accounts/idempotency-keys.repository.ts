import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';

export interface StoredAnswer {
  request_hash: string;
  status_code: number;
  response: unknown;
}

/**
 * Claims the user's key for this request, or returns the answer of the request that claimed it first.
 * A concurrent request with the same key waits here until the first one commits (or rolls back, and
 * then claims it itself).
 */
export async function claimKey(
  trx: Tx,
  w: { userId: string; key: string; hash: string },
): Promise<StoredAnswer | undefined> {
  const claimed = await sql`
    insert into idempotency_keys (user_id, key, request_hash) values (${w.userId}::uuid, ${w.key}, ${w.hash})
    on conflict (user_id, key) do nothing
    returning key`.execute(trx);
  if (claimed.rows.length > 0) return undefined;
  const existing = await sql<StoredAnswer>`
    select request_hash, status_code, response from idempotency_keys
    where user_id = ${w.userId}::uuid and key = ${w.key}`.execute(trx);
  return existing.rows[0]!;
}

/** The claimed key's answer, committed with the work it answers for. */
export async function storeAnswer(
  trx: Tx,
  w: { userId: string; key: string; status: number; body: unknown },
): Promise<void> {
  await sql`
    update idempotency_keys set status_code = ${w.status}, response = ${JSON.stringify(w.body)}::jsonb
    where user_id = ${w.userId}::uuid and key = ${w.key}`.execute(trx);
}
