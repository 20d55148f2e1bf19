import { type RawBuilder, sql } from 'kysely';
import type { CardStatus, OperationStatus } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { operationEventSteps } from '../events/emit';
import type { OperationRow } from '../operations/operations.repository';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import { lapsedHeld } from './expired-holds.repository';
import { lockedAsSeen, readHeldAndPending } from './holds.repository';
import { insertClaim, type PosClaim } from './ledger.repository';
import { consumeLots, pendingOf } from './lots.sql';

/**
 * The SQL of settling a hold (a capture or a release, alone or in a set-based batch): the hold and its
 * account locked in the order of every POS write, and the statements that close it. A new hold's SQL is
 * `holds.repository.ts`.
 */

export interface LockedHold {
  hold_id: string;
  operation_id: string | null;
  created_at: Date;
  meta: unknown;
  /** The transaction's now(): a capture's redemption is created at it. */
  now: Date;
  /** The hold's POS (the only one that may settle it): its name and address, for the event. */
  pos_name: string | null;
  pos_address: string | null;
  status: OperationStatus;
  pos_id: string | null;
  /** Its expires_at has passed (now() of the transaction). */
  lapsed: boolean;
  /** meta.reason: "Expired" for a hold the sweeper (or a write) voided as lapsed. */
  reason: string | null;
  /** Positive: the points the hold holds. */
  held: string;
  account_id: string;
  card_id: string | null;
  card_number: string | null;
  card_status: CardStatus | null;
  balance: string;
  held_balance: string;
  /** Points of the account's lapsed holds not voided yet (read for a release only, else 0). */
  account_lapsed: string;
  /** Points of the account's pending lots (read for a release only, else 0). */
  account_pending: string;
}

/** The holds (`h`) with their account (`a`), card (`c`) and POS (`p`), which a settlement reads. */
export const holdsWithAccounts = sql`operations h
    join accounts a on a.id = h.account_id
    left join cards c on c.id = h.card_id
    left join pos_keys p on p.id = h.pos_id`;

/**
 * What a settlement reads of `holdsWithAccounts`: a `LockedHold`, and `current` (the account's lapsed holds
 * and pending points, read for a release only, are current: see `lockHold`).
 */
export function lockedHoldColumns(withLapsed: boolean): RawBuilder<unknown> {
  return sql`h.id as hold_id, h.operation_id, h.created_at, h.meta, now() as now, p.name as pos_name,
      p.address as pos_address, h.status, h.pos_id, h.expires_at <= now() as lapsed, h.meta->>'reason' as reason,
      -h.points as held, h.account_id, h.card_id, h.card_number, c.status as card_status, a.balance,
      a.held_balance, ${withLapsed ? lapsedHeld(sql.ref('a.id')) : sql`0`} as account_lapsed,
      ${withLapsed ? pendingOf(sql.ref('a.id')) : sql`0`} as account_pending,
      ${withLapsed ? lockedAsSeen(sql.ref('a.id'), sql.ref('a.xmin')) : sql`true`} as current`;
}

/**
 * The hold and its account, locked in the order of every POS write (the hold row, then the account), so a
 * capture, a release and the sweeper queue on the hold and cannot deadlock on the account. A release's
 * answer also needs the account's lapsed holds and pending points: read by the same statement, and again
 * after the lock when the account changed while the release waited for it (`lockedAsSeen`), as for a new hold.
 */
export async function lockHold(
  trx: Tx,
  holdId: string,
  withLapsed: boolean,
): Promise<LockedHold | undefined> {
  const result = await sql<LockedHold & { current: boolean }>`
    select ${lockedHoldColumns(withLapsed)}
    from ${holdsWithAccounts}
    where h.id = ${holdId}::uuid and h.type = 'hold'
    for no key update of h, a`.execute(trx);
  const row = result.rows[0];
  if (!row) return undefined;
  const { current, ...hold } = row;
  if (current) return hold;
  const { lapsed, pending } = await readHeldAndPending(trx, hold.account_id);
  return { ...hold, account_lapsed: lapsed, account_pending: pending };
}

/**
 * The `h` step of captures or releases: the holds of `closed` (a relation with `hold_id` and `reason`)
 * closed, each with the reason why.
 */
export function closeHolds(status: 'applied' | 'voided', closed: RawBuilder<unknown>) {
  return sql`update operations set status = ${status}, meta = operations.meta || jsonb_build_object('reason', c.reason)
    from ${closed} c where operations.id = c.hold_id`;
}

/** The `h` step of a capture or release: the hold closed, with the reason why. */
function closeHold(w: SettleWrite, status: 'applied' | 'voided') {
  return closeHolds(status, sql`(select ${w.hold.hold_id}::uuid as hold_id, ${w.reason}::text as reason)`);
}

export interface SettleWrite {
  claim: PosClaim;
  hold: LockedHold;
  /**
   * The operation the settlement writes (the redemption, stored as this row says) or closes (the hold),
   * as its event shows it.
   */
  operation: OperationRow;
  /** meta.reason of the closed hold. */
  reason: string;
}

/** A decided capture: `captured` is the positive exact decimal text of the points redeemed. */
export type CaptureWrite = SettleWrite & { captured: string };

/**
 * Persist a decided capture: the hold `applied`, the account debited by the captured points and freed of
 * the whole hold (the rest is released), the claim with the answer, the `redemption` and the lots it
 * consumed (soonest expiry first: expired lots a hold kept from the sweeper go first).
 */
export async function applyCapture(trx: Tx, w: CaptureWrite): Promise<StoredRequest> {
  const h = w.hold;
  const result = await sql<StoredRequest>`
    with h as (${closeHold(w, 'applied')}),
    a as (
      update accounts set balance = balance - ${w.captured}::numeric, held_balance = held_balance - ${h.held}::numeric
      where id = ${h.account_id}::uuid
      returning balance, held_balance
    ),
    q as (${insertClaim(w.claim)}),
    r as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number, pos_id,
        related_id, meta)
      select ${w.operation.id}::uuid, ${w.claim.operationId}, 'redemption', 'completed', ${w.operation.points}::numeric,
        ${h.account_id}::uuid, ${h.card_id}::uuid, ${h.card_number}, ${w.claim.posId}::uuid, ${h.hold_id}::uuid,
        ${JSON.stringify(w.operation.meta)}::jsonb
      from q
      returning id
    ),
    ${consumeLots({ accountId: h.account_id, points: w.captured, operationId: sql`(select id from r)` })},
    ${operationEventSteps(
      'points.redeemed',
      w.operation,
      balancesAfter(h.account_id, sql`-(select coalesce(sum(take), 0) from lc_take where pending)`),
    )}
    select q.* from q`.execute(trx);
  return result.rows[0]!;
}

/** Persist a decided release: the hold `voided`, its points no longer held, the claim, the event. */
export async function applyRelease(trx: Tx, w: SettleWrite): Promise<StoredRequest> {
  const h = w.hold;
  const result = await sql<StoredRequest>`
    with h as (${closeHold(w, 'voided')}),
    a as (
      update accounts set held_balance = held_balance - ${h.held}::numeric where id = ${h.account_id}::uuid
      returning balance, held_balance
    ),
    q as (${insertClaim(w.claim)}),
    ${operationEventSteps('hold.released', w.operation, balancesAfter(h.account_id))}
    select * from q`.execute(trx);
  return result.rows[0]!;
}
