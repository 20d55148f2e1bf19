import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { type PeriodicJob, startPeriodic } from '../../lib/periodic';
import { expireHoldsIn } from './expire-holds';
import { lockAccountsInOrder, lockExpiredHolds } from './expired-holds.repository';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/**
 * Voids expired holds and releases their points, in bounded batches, each its own transaction. Safe with
 * any number of server instances sweeping at once: `FOR NO KEY UPDATE SKIP LOCKED` gives each its own holds.
 * Returns how many holds it voided.
 */
export async function sweepExpiredHolds(db: Db, batchSize = BATCH): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const voided = await inTransaction(db, async (trx) => {
      const holds = await lockExpiredHolds(trx, batchSize);
      if (holds.length === 0) return 0;
      await lockAccountsInOrder(trx, [...new Set(holds.map((h) => h.account_id))].sort());
      await expireHoldsIn(trx, { holdIds: holds.map((h) => h.id) });
      return holds.length;
    });
    total += voided;
    if (voided < batchSize) break;
  }
  return total;
}

/** Runs the sweep every `intervalMs` (never two runs at once in this process). */
export function startHoldSweeper(
  db: Db,
  intervalMs: number,
  log: FastifyBaseLogger,
  onRun?: (outcome: 'ok' | 'error', voided: number) => void,
): PeriodicJob {
  return startPeriodic(intervalMs, () =>
    sweepExpiredHolds(db).then(
      (voided) => {
        onRun?.('ok', voided);
        if (voided > 0) log.info({ voided }, 'expired holds voided');
      },
      (error) => {
        onRun?.('error', 0);
        log.error({ err: error }, 'hold sweep failed');
      },
    ),
  );
}
