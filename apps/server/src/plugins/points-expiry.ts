import fp from 'fastify-plugin';
import { type PointsExpirySweeper, startPointsExpirySweeper } from '../modules/ledger/points-expiry';

/**
 * Runs the ledger's points-expiry sweeper for the life of the app: started when the app is ready, stopped
 * (its current run awaited) when it closes. `intervalMs` 0 turns it off.
 */
export const pointsExpiryPlugin = fp<{ intervalMs: number }>(
  async (app, opts) => {
    if (opts.intervalMs <= 0) return;
    let sweeper: PointsExpirySweeper | undefined;
    app.addHook('onReady', async () => {
      sweeper = startPointsExpirySweeper(app.db, opts.intervalMs, app.log);
    });
    app.addHook('onClose', async () => sweeper?.stop());
  },
  { name: 'points-expiry' },
);
