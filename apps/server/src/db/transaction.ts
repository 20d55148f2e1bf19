import type { Transaction } from 'kysely';
import type { Db } from './connection';
import type { Database } from './schema';

export type Tx = Transaction<Database>;

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const MAX_ATTEMPTS = 5;

/**
 * Runs `work` in one transaction and retries it a bounded number of times when PostgreSQL reports a
 * serialization failure or deadlock (ARCHITECTURE.md "Scale-out path"). `work` must be safe to re-run:
 * it does only database work through `trx`.
 */
export async function inTransaction<T>(db: Db, work: (trx: Tx) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
