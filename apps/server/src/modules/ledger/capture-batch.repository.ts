import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { isUuid } from '../../lib/uuid';
import { batchEventSteps } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import {
  answersInOrder,
  insertClaims,
  updateBatchAccounts,
  writeColumns,
  writeRow,
} from './ledger.repository';
import { consumeLots } from './lots.sql';
import {
  type CaptureWrite,
  closeHolds,
  holdsWithAccounts,
  type LockedHold,
  lockedHoldColumns,
} from './settlements.repository';

/**
 * `lockHold(…, false)` of several captures in one statement, one hold per capture in their order (undefined:
 * none): a set-based batch's read (`capture-batch.ts`). Each hold and its account are locked as the lone
 * read locks them, but a row another transaction has locked (a sweeper, a release, another batch, the
 * account's accrual) is skipped, so the batch never waits and cannot deadlock: its capture reads as if the
 * hold were missing, and the batch hands it back to be written alone. A malformed id names no hold (and
 * would be a cast error in SQL): it is passed as null.
 */
export async function lockHolds(trx: Tx, holdIds: readonly string[]): Promise<Array<LockedHold | undefined>> {
  const ids = holdIds.map((id) => (isUuid(id) ? id : null));
  const result = await sql<(LockedHold & { current: boolean }) | { hold_id: null }>`
    with h as (
      select ${lockedHoldColumns(false)}
      from ${holdsWithAccounts}
      where h.id = any(${ids}::uuid[]) and h.type = 'hold'
      for no key update of h, a skip locked
    )
    select h.*
    from unnest(${ids}::uuid[]) with ordinality as n(id, ord)
    left join h on h.hold_id = n.id
    order by n.ord`.execute(trx);
  return result.rows.map((row) => {
    if (row.hold_id === null) return undefined;
    const { current: _current, ...hold } = row as LockedHold & { current: boolean };
    return hold;
  });
}

/**
 * Persist decided captures in one statement, each of a different account already locked with its hold:
 * `applyCapture`'s statement, set-based for a batch (`capture-batch.ts`). The holds `applied` with their
 * reasons, the accounts debited by the captured points and freed of the whole holds, the claims with their
 * answers, the `redemption`s, the lots they consumed (each account's in the lone order: `consumeLots`), and
 * the `points.redeemed` events with each account's balances after (its pending lots taken accounted for, as
 * `applyCapture` does). The claims come before the new operations, as in `insertAccruals`. The stored
 * answers, in the writes' order.
 */
export async function applyCaptures(trx: Tx, writes: readonly CaptureWrite[]): Promise<StoredRequest[]> {
  const rows = writes.map((w) => ({
    // A hold that may be captured has its card (`settleRefusal` refuses one without an active card).
    ...writeRow({ ...w, cardId: w.hold.card_id! }),
    hold_id: w.hold.hold_id,
    captured: w.captured,
    held: w.hold.held,
    reason: w.reason,
    meta: w.operation.meta,
  }));
  const accountIds = writes.map((w) => w.hold.account_id);
  const result = await sql<StoredRequest & { operation_id: string }>`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${writeColumns},
        hold_id uuid, captured numeric, held numeric, reason text, meta jsonb)
    ),
    h as (${closeHolds('applied', sql`x`)}),
    a as (${updateBatchAccounts(
      sql`balance = accounts.balance - x.captured, held_balance = accounts.held_balance - x.held`,
      accountIds,
    )}),
    q as (${insertClaims}),
    r as (
      insert into operations (id, operation_id, type, status, points, account_id, card_id, card_number, pos_id,
        related_id, meta)
      select x.id, x.operation_id, 'redemption', 'completed', x.points, x.account_id, x.card_id, x.card_number,
        x.pos_id, x.hold_id, x.meta
      from x where exists (select from q)
      returning id
    ),
    ${consumeLots({
      debits: sql`(select x.account_id, x.captured as points, r.id as operation_id from r join x using (id))`,
      accountIds,
    })},
    ${batchEventSteps(
      'points.redeemed',
      balancesAfter(
        sql`a.id`,
        sql`-(select coalesce(sum(t.take), 0) from lc_take t where t.pending and t.account_id = a.id)`,
      ),
    )}
    select * from q`.execute(trx);
  return answersInOrder(result.rows, writes);
}
