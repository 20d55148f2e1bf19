import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { OperationType } from '../../db/schema';
import type { StoredRequest } from '../pos/idempotency';

/**
 * The ledger's record of a refused POS write: a `failed` operation (no points move), with the
 * idempotency record of the refusal when the request claimed its operationId. The POS envelope
 * (`pos/failures.ts`) decides when to record one.
 */

export interface FailureRecord {
  operationId: string;
  posId: string;
  hash: string;
  status: number;
  body: unknown;
  type: OperationType;
  points: string;
  accountId?: string | null;
  cardId?: string | null;
  cardNumber?: string | null;
  relatedId?: string | null;
  meta: Record<string, unknown>;
}

/**
 * A failed write that passed authentication: the idempotency record (so a retry gets the same answer),
 * then the `failed` operation (for the Operations screen), both or neither, in the lock order of every
 * POS statement (claim before new operation). Returns undefined when the operationId was taken meanwhile.
 */
export async function insertFailure(db: Db, f: FailureRecord): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    with q as (
      insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      values (${f.operationId}, ${f.posId}, ${f.hash}, ${f.status}, ${JSON.stringify(f.body)}::jsonb)
      on conflict (operation_id) do nothing
      returning pos_id, request_hash, status_code, response
    ),
    o as (
      insert into operations
        (operation_id, type, status, points, account_id, card_id, card_number, pos_id, related_id, meta)
      select ${f.operationId}, ${f.type}, 'failed', ${f.points}::numeric, ${f.accountId ?? null}::uuid,
        ${f.cardId ?? null}::uuid, ${f.cardNumber ?? null}, ${f.posId}::uuid, ${f.relatedId ?? null}::uuid,
        ${JSON.stringify(f.meta)}::jsonb
      from q
    )
    select * from q`.execute(db);
  return result.rows[0];
}

/**
 * A failed write that is not tied to its operationId (validation errors, operationId conflicts): still
 * recorded for staff, without taking the id.
 */
export async function insertUnboundFailure(
  db: Db,
  f: { type: OperationType; posId: string; cardNumber: string | null; meta: Record<string, unknown> },
): Promise<void> {
  await sql`
    insert into operations (type, status, points, card_number, pos_id, meta)
    values (${f.type}, 'failed', 0, ${f.cardNumber}, ${f.posId}::uuid, ${JSON.stringify(f.meta)}::jsonb)`.execute(
    db,
  );
}
