import type { Transaction } from 'kysely';
import type { Db } from './connection';
import { isConnectionError } from './connection-errors';
import type { Database } from './schema';
import { isLostRace } from './sql-errors';

export type Tx = Transaction<Database>;

const MAX_ATTEMPTS = 5;
/** A lost connection is retried less: if the database is down, failing fast (503) is the useful answer. */
const MAX_CONNECTION_ATTEMPTS = 3;

/**
 * The one bounded retry loop: runs `attempt` again, after a short random pause that grows with the
 * attempt number, for as long as `retryable` says the error left nothing behind.
 */
export async function withRetry<T>(
  attempt: () => Promise<T>,
  retryable: (error: unknown, attemptNo: number) => boolean,
): Promise<T> {
  for (let attemptNo = 1; ; attemptNo++) {
    try {
      return await attempt();
    } catch (error) {
      if (!retryable(error, attemptNo)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attemptNo));
    }
  }
}

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
export function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  let workFinished = false;
  return withRetry(
    () => {
      workFinished = false;
      return db.transaction().execute(async (trx) => {
        const result = await work(trx);
        workFinished = true;
        return result;
      });
    },
    (error, attemptNo) => {
      if (isLostRace(error)) return attemptNo < MAX_ATTEMPTS;
      if (isConnectionError(error)) return !workFinished && attemptNo < MAX_CONNECTION_ATTEMPTS;
      return false;
    },
  );
}

/**
 * A single-statement write is its own transaction, so it gets the same bounded retry as `inTransaction`
 * for a lost race. A lost connection is not retried here: the statement may have committed.
 */
export function retryStatement<T>(statement: () => Promise<T>): Promise<T> {
  return withRetry(statement, (error, attemptNo) => isLostRace(error) && attemptNo < MAX_ATTEMPTS);
}
