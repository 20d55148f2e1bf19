import type { EventType } from '@loyalty/contracts';
import type { Tx } from '../../db/transaction';
import { centsNumber, parseCents } from '../../lib/money';
import { findOperationsWithBalances } from '../operations/operations.repository';
import { insertEvents, operationUuid } from './events.repository';

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
 * Events about operations just written in `trx` (by uuid, or a POS's operationId): the operation as
 * `GET /api/v1/operations/{id}` shows it, plus its account's `balance` and `availableBalance` after it.
 */
export async function appendOperationEvents(
  trx: Tx,
  type: EventType,
  operations: readonly string[] | { operationId: string },
): Promise<void> {
  const ids = Array.isArray(operations)
    ? (operations as readonly string[])
    : [await operationUuid(trx, (operations as { operationId: string }).operationId)].filter(
        (id): id is string => id !== undefined,
      );
  const found = new Map((await findOperationsWithBalances(trx, ids)).map((f) => [f.operation.id, f]));
  await insertEvents(
    trx,
    ids.flatMap((id) => {
      const f = found.get(id);
      if (!f) return [];
      const money =
        f.balance !== null && f.available !== null
          ? { balance: points(f.balance), availableBalance: points(f.available) }
          : {};
      return [{ type, data: { ...f.operation, ...money } }];
    }),
  );
}
