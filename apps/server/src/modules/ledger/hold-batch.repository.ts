import { sql } from 'kysely';
import type { Tx } from '../../db/transaction';
import { parseCents } from '../../lib/money';
import { batchEventSteps } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { balancesAfter } from './balances.sql';
import {
  type HoldWrite,
  holdCard,
  holdTargetColumns,
  insertHoldOperations,
  type ReadHoldTarget,
} from './holds.repository';
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

/**
 * `lockHoldTarget` of several holds in one statement, one target per hold in their order: a set-based
 * batch's read (`hold-batch.ts`). Each account is locked as the lone read locks it; across cards one another
 * transaction has locked is skipped (`locks`), and its hold reads as if its card were missing (`account_id`
 * null): the batch hands it back to be written alone. A target that is not `current` (the account changed
 * between the statement's snapshot and its lock) is not read again here: the caller decides.
 */
export async function lockHoldTargets(
  trx: Tx,
  holds: ReadonlyArray<{ cardNumber: string; posId: string }>,
  locks: BatchLocks,
): Promise<ReadHoldTarget[]> {
  const cards = holds.map((h) => h.cardNumber);
  const result = await sql<ReadHoldTarget & { ord: string }>`
    with k as (
      ${holdCard}
      where c.number = any(${cards}::text[])
      for no key update of a ${lockTail(locks)}
    )
    select n.ord, ${holdTargetColumns}
    from unnest(${cards}::text[], ${holds.map((h) => h.posId)}::uuid[])
      with ordinality as n(card_number, pos_id, ord)
    left join k on k.number = n.card_number
    left join pos_keys p on p.id = n.pos_id
    order by n.ord`.execute(trx);
  return result.rows.map(({ ord: _ord, ...target }) => target);
}

/**
 * Persist decided holds in one statement, their accounts already locked: the held points, the claims with
 * their answers, the `hold` operations and their `hold.created` events, each with its account's balances
 * just after it (`later_held`: an account's later holds in the batch taken back out), `insertHold`'s
 * statement, set-based for a batch. The claims come before the new operations (the lock order of every POS
 * write; `exists (select from q)` makes the other steps wait for them), and a concurrent duplicate fails on
 * the operationId key. The stored answers, in the writes' order.
 */
export async function insertHolds(trx: Tx, writes: readonly HoldWrite[]): Promise<StoredRequest[]> {
  const later = laterOfAccount(
    writes,
    (w) => w.operation.account_id!,
    // A hold moves its account's held points by its own (its operation's points are negative).
    (w) => -parseCents(w.operation.points),
  );
  const rows = writes.map((w, i) => ({
    ...writeRow(w),
    expires_at: w.expiresAt.toISOString(),
    later_held: later[i],
  }));
  const result = await sql<StoredRequest & { operation_id: string }>`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(${writeColumns},
        expires_at timestamptz, later_held numeric)
    ),
    a as (${updateBatchAccounts(
      sql`held_balance = accounts.held_balance - s.points`,
      sql`sum(x.points) as points`,
      writes.map((w) => w.operation.account_id!),
    )}),
    q as (${insertClaims}),
    o as (${insertHoldOperations(sql`x as h where exists (select from q)`)}),
    ${batchEventSteps('hold.created', balancesAfter(sql`a.id`, undefined, { held: sql`x.later_held` }))}
    select * from q`.execute(trx);
  return answersInOrder(result.rows, writes);
}
