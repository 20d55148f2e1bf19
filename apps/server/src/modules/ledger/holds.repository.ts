import { type RawBuilder, sql } from 'kysely';
import type { CardStatus } from '../../db/schema';
import type { Tx } from '../../db/transaction';
import { operationEventSteps } from '../events/emit';
import type { OperationRow } from '../operations/operations.repository';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import { lapsedHeld } from './expired-holds.repository';
import { insertClaim, type PosClaim } from './ledger.repository';
import { pendingOf } from './lots.sql';

export interface HoldTarget {
  card_id: string | null;
  card_status: CardStatus | null;
  account_id: string | null;
  balance: string | null;
  held_balance: string | null;
  /** Points of the account's lapsed holds not voided yet: they no longer count as held. */
  lapsed: string;
  /** Points of the account's lots still in their pending period: not available to hold. */
  pending: string;
  /** The transaction's now(), to the millisecond: a new hold's expiry counts from it. */
  now: Date;
  /** The `holds.ttl_minutes` setting, null when unset. */
  ttl_minutes: number | null;
  /** The requesting POS's name and address, which the hold's event shows. */
  pos_name: string | null;
  pos_address: string | null;
}

/**
 * True when the account row this statement locked (`lockedXmin`: the `xmin` of the version FOR NO KEY UPDATE
 * returned) is the version the statement's snapshot sees, i.e. nothing changed the account between the
 * snapshot and the lock. Under READ COMMITTED a locking statement's snapshot predates its wait for the lock,
 * while the locked row is re-read fresh: a write that committed meanwhile (an accrual's pending lot, a sweep
 * voiding a lapsed hold) would be missing from the statement's reads of the account's lots and holds. Every
 * write of an account's lots or holds also updates its row (balance = Σ remaining of its lots, held_balance =
 * Σ its open holds, both proven by verify-ledger), so when the versions agree those reads are current too.
 */
export function lockedAsSeen(
  accountId: RawBuilder<unknown>,
  lockedXmin: RawBuilder<unknown>,
): RawBuilder<boolean> {
  return sql<boolean>`coalesce((select s.xmin from accounts s where s.id = ${accountId}) = ${lockedXmin}, false)`;
}

/** The account's lapsed holds and pending points, read again after its lock when the locking read was stale. */
export async function readHeldAndPending(
  trx: Tx,
  accountId: string,
): Promise<{ lapsed: string; pending: string }> {
  const account = sql`${accountId}::uuid`;
  const read = await sql<{ lapsed: string; pending: string }>`
    select ${lapsedHeld(account)} as lapsed, ${pendingOf(account)} as pending`.execute(trx);
  return read.rows[0]!;
}

/** A hold's card joined to its account (`c`, `a`): what the hold reads select as `k` before locking `a`. */
export const holdCard = sql`select c.number, c.id as card_id, c.status as card_status, a.id as account_id, a.balance,
        a.held_balance, a.xmin as locked_xmin
      from cards c join accounts a on a.id = c.account_id`;

/**
 * What a hold read selects over its card `k` (`holdCard`, locked) and the requesting POS `p`: the account's
 * lapsed holds and pending points, whether the locked account is the version the statement saw
 * (`current`), now() to the millisecond, the TTL setting, the POS's name and address.
 */
export const holdTargetColumns = sql`k.card_id, k.card_status, k.account_id, k.balance, k.held_balance,
      ${lapsedHeld(sql.ref('k.account_id'))} as lapsed, ${pendingOf(sql.ref('k.account_id'))} as pending,
      ${lockedAsSeen(sql.ref('k.account_id'), sql.ref('k.locked_xmin'))} as current,
      date_trunc('milliseconds', now()) as now,
      (select value from settings where key = 'holds.ttl_minutes') as ttl_minutes,
      p.name as pos_name, p.address as pos_address`;

/** A hold target as read, with whether what was read of its account is current (`lockedAsSeen`). */
export type ReadHoldTarget = HoldTarget & { current: boolean };

/**
 * A new hold's card and account, the account locked FOR NO KEY UPDATE; the account's lapsed holds and pending
 * points; the TTL setting; the POS. When the account changed while the hold waited for its lock
 * (`lockedAsSeen`), the lapsed holds and pending points are read again in a statement of their own, so the
 * hold never counts pending points or a voided hold's points as available; otherwise (no wait, or a card's
 * next write in a group-committed batch) the one statement is enough.
 */
export async function lockHoldTarget(trx: Tx, cardNumber: string, posId: string): Promise<HoldTarget> {
  const result = await sql<ReadHoldTarget>`
    with k as (
      ${holdCard}
      where c.number = ${cardNumber}
      for no key update of a
    )
    select ${holdTargetColumns}
    from (select 1) as one
    left join k on true
    left join pos_keys p on p.id = ${posId}::uuid`.execute(trx);
  const [{ current: _current, ...target }] = (await readAgainIfStale(trx, result.rows)) as [ReadHoldTarget];
  return target;
}

/**
 * Hold targets made current: where the account changed while the read waited for its lock (`current`
 * false), its lapsed holds and pending points read again, once per account (`readHeldAndPending`); a missing
 * or inactive card needs no second read, it is refused whatever the account holds. The lone hold's read
 * (`lockHoldTarget`) and a batch's that waited (`hold-batch.ts`) both end here.
 */
export async function readAgainIfStale(
  trx: Tx,
  targets: readonly ReadHoldTarget[],
): Promise<ReadHoldTarget[]> {
  const again = new Map<string, { lapsed: string; pending: string }>();
  const stale = (t: ReadHoldTarget) => !t.current && t.account_id !== null && t.card_status === 'active';
  for (const t of targets) {
    if (stale(t) && !again.has(t.account_id!)) {
      again.set(t.account_id!, await readHeldAndPending(trx, t.account_id!));
    }
  }
  return targets.map((t) =>
    stale(t) ? { ...t, ...again.get(t.account_id!)!, current: true } : { ...t, current: true },
  );
}

export interface HoldWrite {
  claim: PosClaim;
  /** The hold as it is stored (its points negative), which its `hold.created` event shows. */
  operation: OperationRow;
  cardId: string;
  expiresAt: Date;
}

/**
 * The `o` step of a hold's persist statement: the `hold` operations, active, of the relation `h` (one row
 * per hold: id, operation_id, points (negative), account_id, card_id, card_number, pos_id, expires_at).
 */
export const insertHoldOperations = (h: RawBuilder<unknown>) => sql`
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number,
        pos_id, expires_at, meta)
      select h.id, h.operation_id, 'hold', 'active', h.points, h.account_id, h.card_id, h.card_number,
        h.pos_id, h.expires_at, '{}'::jsonb
      from ${h}`;

/** Persist a decided hold: the held points, the claim with the answer, the `hold` operation, its event. */
export async function insertHold(trx: Tx, w: HoldWrite): Promise<StoredRequest> {
  const o = w.operation;
  const result = await sql<StoredRequest>`
    with a as (
      update accounts set held_balance = held_balance - ${o.points}::numeric where id = ${o.account_id}::uuid
      returning balance, held_balance
    ),
    q as (${insertClaim(w.claim)}),
    o as (${insertHoldOperations(sql`(
        select ${o.id}::uuid, ${w.claim.operationId}::text, ${o.points}::numeric, ${o.account_id}::uuid,
          ${w.cardId}::uuid, ${o.card_number}::text, ${w.claim.posId}::uuid, ${w.expiresAt.toISOString()}::timestamptz
        from q
      ) as h(id, operation_id, points, account_id, card_id, card_number, pos_id, expires_at)`)}
    ),
    ${operationEventSteps('hold.created', o, balancesAfter(o.account_id!))}
    select * from q`.execute(trx);
  return result.rows[0]!;
}
