import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { type Cents, centsNumber, parseCents } from '../../lib/money';
import { runLog } from '../../lib/outage-log';
import { type PeriodicJob, startPeriodic } from '../../lib/periodic';
import { appendOperationEvents } from '../events/emit';
import { sweepExpiredHolds } from './hold-sweeper';
import { expireDueLots, lockDueAccounts } from './points-expiry.repository';

const BATCH = 500;
const MAX_BATCHES_PER_RUN = 200;

export interface ExpiryRun {
  /** Accounts that had points expire. */
  accounts: number;
  points: number;
}

/**
 * Expires what is due (PROGRAMME-API §1), in batches of accounts, each its own transaction: lock the
 * accounts (SKIP LOCKED: any number of servers may run this at once, each takes its own accounts) → one
 * statement expires their due lots and writes an `expiry` per account → `points.expired` events. Accounts
 * held elsewhere are passed over for the rest of the run (their holder, or the next run, has them), and so are
 * a batch's accounts when it expired nothing at all (what a hold keeps waits for the next run). Stops when a
 * batch finds no account left to try.
 *
 * What an account can give is read from `held_balance`, which still counts a lapsed hold until it is
 * voided, though a lapsed hold keeps nothing (issue 15.5): so the run voids the lapsed holds first, as a
 * return or a hold does before it reads what is available, in the hold sweeper's own transactions (its lock
 * order: the holds, then their accounts). Otherwise the points a lapsed hold had held stayed unexpired
 * until the hold sweeper came by, or for good with it off.
 */
export async function expirePoints(db: Db, batchSize = BATCH): Promise<ExpiryRun> {
  await sweepExpiredHolds(db);
  let accounts = 0;
  let points: Cents = 0n;
  const passed: string[] = [];
  for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
    const { due, expired } = await inTransaction(db, async (trx) => {
      const due = await lockDueAccounts(trx, batchSize, passed);
      const expired = due.locked.length > 0 ? await expireDueLots(trx, due.locked) : [];
      if (expired.length > 0) {
        await appendOperationEvents(
          trx,
          'points.expired',
          expired.map((o) => o.id),
        );
      }
      return { due, expired };
    });
    if (due.locked.length === 0 && due.skipped.length === 0) break;
    accounts += expired.length;
    for (const op of expired) points += parseCents(op.points);
    passed.push(...due.skipped);
    if (expired.length === 0) passed.push(...due.locked);
  }
  return { accounts, points: centsNumber(points) };
}

/** Runs `expirePoints` every `intervalMs` (never two runs at once in this process). */
export function startPointsExpirySweeper(
  db: Db,
  intervalMs: number,
  log: FastifyBaseLogger,
  onRun?: (outcome: 'ok' | 'error', run: ExpiryRun) => void,
): PeriodicJob {
  const runs = runLog(log, 'points expiry');
  return startPeriodic(intervalMs, () =>
    expirePoints(db).then(
      (run) => {
        runs.succeeded();
        onRun?.('ok', run);
        if (run.accounts > 0) log.info(run, 'points expired');
      },
      (error) => {
        onRun?.('error', { accounts: 0, points: 0 });
        runs.failed(error, 'points expiry failed');
      },
    ),
  );
}
