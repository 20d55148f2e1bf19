import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { CardStatus } from '../../db/schema';
import { lapsedHeld } from '../ledger/expired-holds.repository';
import { pendingOf } from '../ledger/lots.sql';
import type { StoredRequest } from './idempotency';

export async function findRequest(db: Executor, operationId: string): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    select pos_id, request_hash, status_code, response
    from pos_requests where operation_id = ${operationId}`.execute(db);
  return result.rows[0];
}

/**
 * Waits until no other transaction holds the card's account for a write (a share lock, kept to the end of
 * the caller's transaction): a write of the card that had its lock has then committed or rolled back, and a
 * read after this sees its answer.
 */
export async function waitForCardWriters(db: Executor, cardNumber: string): Promise<void> {
  await sql`select 1 from cards c join accounts a on a.id = c.account_id
    where c.number = ${cardNumber} for share of a`.execute(db);
}

export interface CardBalanceRow {
  number: string;
  status: CardStatus;
  balance: string;
  /** Without lapsed holds (ledger/expired-holds.repository.ts). */
  held_balance: string;
  /** Points of lots still pending. */
  pending: string;
  /** The soonest expiry of a lot with points left, and the points of the lots expiring then. */
  next_expires_at: Date | null;
  next_expiring: string | null;
}

export async function findCardBalance(db: Db, cardNumber: string): Promise<CardBalanceRow | undefined> {
  const result = await sql<CardBalanceRow>`
    select c.number, c.status, a.balance, a.held_balance - ${lapsedHeld(sql.ref('a.id'))} as held_balance,
      ${pendingOf(sql.ref('a.id'))} as pending, n.expires_at as next_expires_at, n.points as next_expiring
    from cards c join accounts a on a.id = c.account_id
    left join lateral (
      select l.expires_at, sum(l.remaining) as points from lots l
      where l.account_id = a.id and l.remaining > 0 and l.expires_at is not null
      group by l.expires_at order by l.expires_at limit 1
    ) n on true
    where c.number = ${cardNumber}`.execute(db);
  return result.rows[0];
}
