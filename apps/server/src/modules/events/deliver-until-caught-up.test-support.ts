import type { Db } from '../../db/connection';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { type DeliveryOptions, deliverDue } from './delivery-worker';
import { deliveryBacklog } from './streams.repository';

/**
 * Runs the due attempts until nothing is left (tests pass a retry schedule of zeros, so retries are due at
 * once). Streams read only transactions older than every running one on the server: on a PostgreSQL server
 * shared with other test files, theirs can hold an event back for a moment, so an empty round waits a
 * little (bounded) before the next, until the backlog is empty.
 */
export async function deliverUntilCaughtUp(
  db: Db,
  crypto: KeyCrypto,
  options: DeliveryOptions,
): Promise<void> {
  for (let round = 0; round < 3000; round++) {
    if ((await deliverDue(db, crypto, options)) > 0) continue;
    if ((await deliveryBacklog(db)) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('deliveries still due after 3,000 rounds');
}
