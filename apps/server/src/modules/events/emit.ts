import type { EventType } from '@loyalty/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { centsNumber, parseCents } from '../../lib/money';
import {
  findOperationsWithBalances,
  type OperationRow,
  toOperation,
} from '../operations/operations.repository';
import { eventSteps, insertEvents, operationUuid } from './events.repository';

/**
 * The outbox (PROGRAMME-API §5): call it inside the transaction that writes the change, so the event
 * exists exactly when the change committed and never for a write that rolled back. Adding an event type
 * is one such line where its change is written. `data` is what the admin API shows of the changed thing.
 */
export async function appendEvent(trx: Tx, type: EventType, data: object): Promise<void> {
  await insertEvents(trx, [{ type, data: { ...data } }]);
}

const points = (text: string) => centsNumber(parseCents(text));

/**
 * What an event about each of these operations carries (order not kept): the operation as
 * `GET /api/v1/operations/{id}` shows it, plus its account's `balance` and `availableBalance` now.
 */
export async function readOperationEventData(
  db: Executor,
  ids: readonly string[],
  options: { creditsInOrder?: boolean } = {},
): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
  return (await findOperationsWithBalances(db, ids, options)).map((f) => {
    const money =
      f.balance !== null && f.available !== null
        ? { balance: points(f.balance), availableBalance: points(f.available) }
        : {};
    return { id: f.operation.id, data: { ...f.operation, ...money } };
  });
}

/**
 * Events about operations just written in `trx` (by uuid, or a POS's operationId), with the data of
 * `readOperationEventData`, in the order given. `creditsInOrder`: they are credits one statement wrote
 * in that order, each event to carry the balances after its own credit (`findOperationsWithBalances`).
 */
export async function appendOperationEvents(
  trx: Tx,
  type: EventType,
  operations: readonly string[] | { operationId: string },
  options: { creditsInOrder?: boolean } = {},
): Promise<void> {
  const ids = Array.isArray(operations)
    ? (operations as readonly string[])
    : [await operationUuid(trx, (operations as { operationId: string }).operationId)].filter(
        (id): id is string => id !== undefined,
      );
  const found = new Map((await readOperationEventData(trx, ids, options)).map((f) => [f.id, f.data]));
  await insertEvents(
    trx,
    ids.flatMap((id) => {
      const data = found.get(id);
      return data ? [{ type, data }] : [];
    }),
  );
}

/**
 * The event about the one operation a ledger write is writing, as CTE steps of the write's own statement
 * (issue 13: a statement and a read fewer under the account's lock than `appendOperationEvents`). Its
 * data is the same: the operation as `toOperation` shows it, built from the row the write stores, merged
 * with `balances`, SQL over the statement's `a` step (`balancesAfter` of the ledger).
 */
export function operationEventSteps(
  type: EventType,
  operation: OperationRow,
  balances: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const data = sql`${JSON.stringify(toOperation(operation))}::jsonb || ${balances}`;
  return eventSteps(sql`select ${type}::text as type, ${data} as data from a`);
}

/**
 * `operationEventSteps` of a set-based batch's statement: the event of each row of its `x` (`event`: the
 * operation as `toOperation` shows it), merged with `balances` over the `a` step, which updated the row's
 * account; selected once the claims (`q`) are in.
 */
export function batchEventSteps(type: EventType, balances: RawBuilder<unknown>): RawBuilder<unknown> {
  return eventSteps(sql`select ${type}::text as type, x.event || ${balances} as data
      from x join a on a.id = x.account_id where exists (select from q)`);
}
