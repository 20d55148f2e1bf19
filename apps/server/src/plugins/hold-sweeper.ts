import fp from 'fastify-plugin';
import { type HoldSweeper, startHoldSweeper } from '../modules/ledger/hold-sweeper';

/**
 * Runs the ledger's hold sweeper for the life of the app: started when the app is ready, stopped (its
 * current run awaited) when it closes. `intervalMs` 0 turns it off (tests that sweep by hand).
 */
export const holdSweeperPlugin = fp<{ intervalMs: number }>(
  async (app, opts) => {
    if (opts.intervalMs <= 0) return;
    let sweeper: HoldSweeper | undefined;
    app.addHook('onReady', async () => {
      sweeper = startHoldSweeper(app.db, opts.intervalMs, app.log, (outcome, voided) =>
        app.metrics.sweeperRun(outcome, voided),
      );
    });
    app.addHook('onClose', async () => sweeper?.stop());
  },
  { name: 'hold-sweeper', dependencies: ['metrics'] },
);
