import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { runLog } from '../../lib/outage-log';
import { type PeriodicJob, startPeriodic } from '../../lib/periodic';
import { expireHoldsIn } from './expire-holds';
import { lockExpiredHolds, lockFreeAccounts } from './expired-holds.repository';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 20;

/**
 * Voids expired holds and releases their points, in bounded batches, each its own transaction. Safe with
 * any number of server instances sweeping at once: `FOR NO KEY UPDATE SKIP LOCKED` gives each its own holds,
 * and it never waits for an account either (`lockFreeAccounts`): the holds of an account locked elsewhere
 * are left to the next sweep. Returns how many holds it voided.
 */
export async function sweepExpiredHolds(db: Db, batchSize = BATCH): Promise<number> {
  let total = 0;
  const passed: string[] = [];
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const { found, voided } = await inTransaction(db, async (trx) => {
      const holds = await lockExpiredHolds(trx, batchSize, passed);
      if (holds.length === 0) return { found: 0, voided: 0 };
      const free = await lockFreeAccounts(trx, [...new Set(holds.map((h) => h.account_id))]);
      const holdIds: string[] = [];
      for (const h of holds) {
        if (free.has(h.account_id)) holdIds.push(h.id);
        // Left for the next sweep: the next batch of this one must not take it again first.
        else passed.push(h.id);
      }
      if (holdIds.length > 0) await expireHoldsIn(trx, { holdIds });
      return { found: holds.length, voided: holdIds.length };
    });
    total += voided;
    if (found < batchSize) break;
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
  const runs = runLog(log, 'hold sweep');
  return startPeriodic(intervalMs, () =>
    sweepExpiredHolds(db).then(
      (voided) => {
        runs.succeeded();
        onRun?.('ok', voided);
        if (voided > 0) log.info({ voided }, 'expired holds voided');
      },
      (error) => {
        onRun?.('error', 0);
        runs.failed(error, 'hold sweep failed');
      },
    ),
  );
}
