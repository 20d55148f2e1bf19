import { isUuid } from '@loyalty/contracts';
import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { parseCents } from '../../lib/money';
import { batchEventSteps } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import {
  answersInOrder,
  type BatchLocks,
  insertClaims,
  laterOfAccount,
  lockTail,
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
 * read locks them; across cards a row another transaction has locked (a sweeper, a release, another batch,
 * the account's accrual) is skipped (`locks`), so that batch never waits and cannot deadlock: its capture
 * reads as if the hold were missing, and the batch hands it back to be written alone. A malformed id names
 * no hold (and would be a cast error in SQL): it is passed as null.
 */
export async function lockHolds(
  trx: Tx,
  holdIds: readonly string[],
  locks: BatchLocks,
): Promise<Array<LockedHold | undefined>> {
  const ids = holdIds.map((id) => (isUuid(id) ? id : null));
  const result = await sql<(LockedHold & { current: boolean }) | { hold_id: null }>`
    with h as (
      select ${lockedHoldColumns(false)}
      from ${holdsWithAccounts}
      where h.id = any(${ids}::uuid[]) and h.type = 'hold'
      for no key update of h, a ${lockTail(locks)}
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

const accountOf = (w: CaptureWrite) => w.hold.account_id;

/**
 * Persist decided captures in one statement, their holds and accounts already locked: `applyCapture`'s
 * statement, set-based for a batch (`capture-batch.ts`). The holds `applied` with their reasons, the accounts
 * debited by the captured points and freed of the whole holds, the claims with their answers, the
 * `redemption`s, the lots they consumed (each account's in the lone order, an account's captures one after
 * another in the writes' order: `consumeLots`), and the `points.redeemed` events with the account's balances
 * just after each capture (its pending lots taken accounted for, as `applyCapture` does; `later_*`: the
 * account's later captures in the batch taken back out). The claims come before the new operations, as in
 * `insertAccruals`. The stored answers, in the writes' order.
 */
export async function applyCaptures(trx: Tx, writes: readonly CaptureWrite[]): Promise<StoredRequest[]> {
  const laterBalance = laterOfAccount(writes, accountOf, (w) => -parseCents(w.captured));
  const laterHeld = laterOfAccount(writes, accountOf, (w) => -parseCents(w.hold.held));
  const rows = writes.map((w, i) => ({
    // A hold that may be captured has its card (`settleRefusal` refuses one without an active card).
    ...writeRow({ ...w, cardId: w.hold.card_id! }),
    hold_id: w.hold.hold_id,
    captured: w.captured,
    held: w.hold.held,
    reason: w.reason,
    meta: w.operation.meta,
    ord: i,
    later_balance: laterBalance[i],
    later_held: laterHeld[i],
  }));
  const accountIds = writes.map((w) => w.hold.account_id);
  const result = await sql<StoredRequest & { operation_id: string }>`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${writeColumns},
        hold_id uuid, captured numeric, held numeric, reason text, meta jsonb, ord integer,
        later_balance numeric, later_held numeric)
    ),
    h as (${closeHolds('applied', sql`x`)}),
    a as (${updateBatchAccounts(
      sql`balance = accounts.balance - s.captured, held_balance = accounts.held_balance - s.held`,
      sql`sum(x.captured) as captured, sum(x.held) as held`,
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
      debits: sql`(select x.account_id, x.captured as points, r.id as operation_id, x.ord from r join x using (id))`,
      accountIds,
    })},
    ${batchEventSteps(
      'points.redeemed',
      balancesAfter(
        sql`a.id`,
        // The pending points this capture and the account's earlier ones in the batch took.
        sql`-(select coalesce(sum(t.take), 0) from lc_take t join x y on y.id = t.operation_id
          where t.pending and t.account_id = a.id and y.ord <= x.ord)`,
        { balance: sql`x.later_balance`, held: sql`x.later_held` },
      ),
    )}
    select * from q`.execute(trx);
  return answersInOrder(result.rows, writes);
}
