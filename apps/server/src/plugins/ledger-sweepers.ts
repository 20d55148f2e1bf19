import fp from 'fastify-plugin';
import type { PeriodicJob } from '../lib/periodic';
import { startHoldSweeper } from '../modules/ledger/hold-sweeper';
import { startPointsExpirySweeper } from '../modules/ledger/points-expiry';

export interface LedgerSweepersOptions {
  /** Voids expired holds (HOLD_SWEEP_INTERVAL_MS); 0 = off, for tests that sweep by hand. */
  holdIntervalMs: number;
  /** Expires due lots (POINTS_EXPIRY_INTERVAL_MS); 0 = off. */
  expiryIntervalMs: number;
}

/**
 * The ledger's background work for the life of the app: started when the app is ready, stopped (a run in
 * progress awaited) when it closes. Each run is counted in the metrics by outcome.
 */
export const ledgerSweepersPlugin = fp<LedgerSweepersOptions>(
  async (app, opts) => {
    const jobs: PeriodicJob[] = [];
    app.addHook('onReady', async () => {
      if (opts.holdIntervalMs > 0) {
        jobs.push(
          startHoldSweeper(app.db, opts.holdIntervalMs, app.log, (outcome, voided) =>
            app.metrics.sweeperRun(outcome, voided),
          ),
        );
      }
      if (opts.expiryIntervalMs > 0) {
        jobs.push(
          startPointsExpirySweeper(app.db, opts.expiryIntervalMs, app.log, (outcome, run) =>
            app.metrics.expiryRun(outcome, run.points),
          ),
        );
      }
    });
    app.addHook('onClose', async () => {
      await Promise.all(jobs.map((job) => job.stop()));
    });
  },
  { name: 'ledger-sweepers', dependencies: ['metrics'] },
);
