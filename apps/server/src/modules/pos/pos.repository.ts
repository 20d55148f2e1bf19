import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { CardStatus, OperationType } from '../../db/schema';
import { lapsedHeld } from '../ledger/expired-holds.repository';
import type { StoredRequest } from './idempotency';

// Re-exported for the POS services that import it from here.

export async function findRequest(db: Executor, operationId: string): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    select pos_id, request_hash, status_code, response
    from pos_requests where operation_id = ${operationId}`.execute(db);
  return result.rows[0];
}

export interface CardBalanceRow {
  number: string;
  status: CardStatus;
  balance: string;
  /** Without lapsed holds (ledger/expired-holds.repository.ts). */
  held_balance: string;
}

export async function findCardBalance(db: Db, cardNumber: string): Promise<CardBalanceRow | undefined> {
  const result = await sql<CardBalanceRow>`
    select c.number, c.status, a.balance, a.held_balance - ${lapsedHeld(sql.ref('a.id'))} as held_balance
    from cards c join accounts a on a.id = c.account_id
    where c.number = ${cardNumber}`.execute(db);
  return result.rows[0];
}

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
