import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { CardStatus } from '../../db/schema';
import { lapsedHeld } from '../ledger/expired-holds.repository';
import type { StoredRequest } from './idempotency';

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
