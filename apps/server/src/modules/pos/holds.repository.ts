import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { CardStatus, OperationStatus } from '../../db/schema';
import { isUuid } from '../../lib/uuid';
import { lapsedHeld } from '../ledger/expired-holds.repository';
import type { StoredRequest } from './idempotency';

const RETURNING = sql`returning pos_id, request_hash, status_code, response`;
const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

interface RequestKey {
  operationId: string;
  posId: string;
  hash: string;
}

/**
 * A hold as one statement: reserve the points on the account only if the card is active and enough is
 * available (re-checked on the latest row version when another write got there first, so concurrent
 * holds can never over-commit), claim the operationId with the answer, then write the `hold` operation
 * with its expiry. Nothing is returned when the card or the funds refuse.
 */
export async function insertHold(
  db: Db,
  w: RequestKey & { holdId: string; cardNumber: string; points: string },
): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    with a as (
      update accounts set held_balance = accounts.held_balance + ${w.points}::numeric
      from cards c
      where c.number = ${w.cardNumber} and c.status = 'active' and accounts.id = c.account_id
        and accounts.balance - accounts.held_balance >= ${w.points}::numeric
      returning accounts.id as account_id, c.id as card_id, accounts.balance,
        accounts.held_balance - ${lapsedHeld(sql.ref('accounts.id'))} as held_balance, date_trunc('milliseconds', now())
          + coalesce((select value from settings where key = 'holds.ttl_minutes'), 15) * interval '1 minute'
          as expires_at
    ),
    q as (
      insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      select ${w.operationId}, ${w.posId}::uuid, ${w.hash}, 201, jsonb_build_object(
        'holdId', ${w.holdId}::text, 'operationId', ${w.operationId}::text, 'points', ${w.points}::numeric,
        'status', 'active', 'expiresAt', to_char(a.expires_at at time zone 'UTC', ${sql.raw(ISO_UTC)}),
        'availableBalance', a.balance - a.held_balance)
      from a
      ${RETURNING}
    ),
    o as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number,
        pos_id, expires_at, meta)
      select ${w.holdId}::uuid, ${w.operationId}, 'hold', 'active', -${w.points}::numeric, a.account_id,
        a.card_id, ${w.cardNumber}, ${w.posId}::uuid, a.expires_at, '{}'::jsonb
      from q, a
    )
    select * from q`.execute(db);
  return result.rows[0];
}

/**
 * Capture as one statement: the hold goes `applied` only if it is this POS's, active, unexpired, on an
 * active card and holds at least the points asked; the account loses the captured points and the whole
 * hold (the rest is released); then the operationId is claimed and a `redemption` records it. Row locks in
 * the one order of every POS statement: the hold, the account, the claim, the new operation.
 */
export async function captureHold(
  db: Db,
  w: RequestKey & { holdId: string; points: string | null },
): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    with h as (
      update operations set status = 'applied', meta = operations.meta || jsonb_build_object('reason',
        case when coalesce(${w.points}::numeric, -operations.points) = -operations.points then 'Captured'
        else format('Captured %s of %s held; %s released', ${w.points}::numeric, -operations.points,
          -operations.points - ${w.points}::numeric) end)
      where id = ${w.holdId}::uuid and type = 'hold' and status = 'active' and pos_id = ${w.posId}::uuid
        and expires_at > now() and -points >= coalesce(${w.points}::numeric, -points)
        and exists (select 1 from cards c where c.id = operations.card_id and c.status = 'active')
      returning id, account_id, card_id, card_number, -points as held,
        coalesce(${w.points}::numeric, -points) as captured, meta
    ),
    a as (
      update accounts set balance = accounts.balance - h.captured, held_balance = accounts.held_balance - h.held
      from h where accounts.id = h.account_id
      returning accounts.balance
    ),
    q as (
      insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
      select ${w.operationId}, ${w.posId}::uuid, ${w.hash}, 200, jsonb_build_object(
        'holdId', h.id, 'status', 'captured', 'points', h.captured, 'balance', a.balance)
      from h, a
      ${RETURNING}
    ),
    r as (
      insert into operations (operation_id, type, status, points, account_id, card_id, card_number, pos_id,
        related_id, meta)
      select ${w.operationId}, 'redemption', 'completed', -h.captured, h.account_id, h.card_id, h.card_number,
        ${w.posId}::uuid, h.id, jsonb_build_object('reason', h.meta->'reason')
      from q, h
    )
    select * from q`.execute(db);
  return result.rows[0];
}

/** Release as one statement: the hold goes `voided` and its points are available again. */
export async function releaseHold(
  db: Db,
  w: RequestKey & { holdId: string },
): Promise<StoredRequest | undefined> {
  const result = await sql<StoredRequest>`
    with h as (
      update operations set status = 'voided', meta = operations.meta || '{"reason": "Released"}'::jsonb
      where id = ${w.holdId}::uuid and type = 'hold' and status = 'active' and pos_id = ${w.posId}::uuid
        and expires_at > now()
      returning id, account_id, -points as held
    ),
    a as (
      update accounts set held_balance = accounts.held_balance - h.held
      from h where accounts.id = h.account_id
      returning accounts.balance, accounts.held_balance - ${lapsedHeld(sql.ref('accounts.id'))} as held_balance
    )
    insert into pos_requests (operation_id, pos_id, request_hash, status_code, response)
    select ${w.operationId}, ${w.posId}::uuid, ${w.hash}, 200, jsonb_build_object(
      'holdId', h.id, 'status', 'released', 'availableBalance', a.balance - a.held_balance)
    from h, a
    ${RETURNING}`.execute(db);
  return result.rows[0];
}

interface ExistingColumns {
  existing_pos_id: string | null;
  existing_hash: string | null;
  existing_status: number | null;
  existing_response: unknown;
}

export interface HoldTargetRow extends ExistingColumns {
  card_id: string | null;
  card_status: CardStatus | null;
  account_id: string | null;
  /** Not counting lapsed holds. */
  available: string | null;
  /** Points of lapsed holds not voided yet: a retry after voiding them may succeed. */
  lapsed: string | null;
}

/** Why a hold was refused: an earlier request with the id, the card, what is available. */
export async function readHoldTarget(db: Db, operationId: string, cardNumber: string) {
  const result = await sql<HoldTargetRow>`
    select q.pos_id as existing_pos_id, q.request_hash as existing_hash, q.status_code as existing_status,
      q.response as existing_response, c.id as card_id, c.status as card_status, c.account_id,
      a.balance - a.held_balance + ${lapsedHeld(sql.ref('a.id'))} as available,
      ${lapsedHeld(sql.ref('a.id'))} as lapsed
    from (select 1) as one
    left join pos_requests q on q.operation_id = ${operationId}
    left join cards c on c.number = ${cardNumber}
    left join accounts a on a.id = c.account_id`.execute(db);
  return result.rows[0]!;
}

export interface HoldStateRow extends ExistingColumns {
  hold_id: string | null;
  status: OperationStatus | null;
  pos_id: string | null;
  /** Its time has passed and it was not captured or released before: active still, or voided as expired. */
  expired: boolean | null;
  held: string | null;
  account_id: string | null;
  card_id: string | null;
  card_number: string | null;
  card_status: CardStatus | null;
}

/** Why a capture or release was refused: an earlier request with the id, and the hold as it is now. */
export async function readHoldState(db: Db, operationId: string, holdId: string) {
  const result = await sql<HoldStateRow>`
    select q.pos_id as existing_pos_id, q.request_hash as existing_hash, q.status_code as existing_status,
      q.response as existing_response, h.id as hold_id, h.status, h.pos_id,
      (h.status = 'active' and h.expires_at <= now()) or (h.status = 'voided' and h.meta->>'reason' = 'Expired')
        as expired,
      -h.points as held, h.account_id, h.card_id, h.card_number, c.status as card_status
    from (select 1) as one
    left join pos_requests q on q.operation_id = ${operationId}
    left join operations h on h.id = ${isUuid(holdId) ? holdId : null}::uuid and h.type = 'hold'
    left join cards c on c.id = h.card_id`.execute(db);
  return result.rows[0]!;
}

export function existingOf(row: ExistingColumns): StoredRequest | undefined {
  if (!row.existing_pos_id) return undefined;
  return {
    pos_id: row.existing_pos_id,
    request_hash: row.existing_hash!,
    status_code: row.existing_status!,
    response: row.existing_response,
  };
}
