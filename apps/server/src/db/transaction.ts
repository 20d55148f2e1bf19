import type { Transaction } from 'kysely';
import type { Db } from './connection';
import { isConnectionError } from './connection-errors';
import type { Database } from './schema';

export type Tx = Transaction<Database>;

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const MAX_ATTEMPTS = 5;
/** A lost connection is retried less: if the database is down, failing fast (503) is the useful answer. */
const MAX_CONNECTION_ATTEMPTS = 3;

/**
 * Runs `work` in one transaction and retries it a bounded number of times when PostgreSQL reports a
 * serialization failure or deadlock (ARCHITECTURE.md "Scale-out path"). `work` must be safe to re-run:
 * it does only database work through `trx`.
 *
 * A lost connection (database restart, terminated backend) is retried too, but only when it broke the
 * transaction before `work` finished: then COMMIT was never sent and the server rolled everything back,
 * so running it again on a fresh connection cannot apply it twice. A connection lost during COMMIT is
 * ambiguous (it may have committed), so that error goes to the caller, which answers 503; POS writes are
 * then safe to retry with their operationId.
 */
export async function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let workFinished = false;
    try {
      return await db.transaction().execute(async (trx) => {
        const result = await work(trx);
        workFinished = true;
        return result;
      });
    } catch (error) {
      if (!shouldRetry(error, attempt, workFinished)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}

function shouldRetry(error: unknown, attempt: number, workFinished: boolean): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && RETRYABLE.has(code)) return attempt < MAX_ATTEMPTS;
  if (isConnectionError(error)) return !workFinished && attempt < MAX_CONNECTION_ATTEMPTS;
  return false;
}
