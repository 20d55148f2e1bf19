import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Secrets } from '../lib/secrets';
import { type DeliveryWorker, startDeliveryWorker } from '../modules/events/delivery-worker';
import { webhookCrypto } from '../modules/events/webhooks.service';

/**
 * Runs this server's webhook delivery worker for the life of the app (every server runs one; they share
 * the work through claims in the database): started when the app is ready, stopped with its attempts
 * awaited when it closes. WEBHOOK_POLL_INTERVAL_MS 0 turns it off (tests that deliver by hand).
 */
export const webhookDeliveriesPlugin = fp<{ config: Config; secrets: Secrets }>(
  async (app, { config, secrets }) => {
    if (config.WEBHOOK_POLL_INTERVAL_MS <= 0) return;
    let worker: DeliveryWorker | undefined;
    app.addHook('onReady', async () => {
      worker = startDeliveryWorker(
        app.db,
        webhookCrypto(secrets),
        {
          intervalMs: config.WEBHOOK_POLL_INTERVAL_MS,
          timeoutMs: config.WEBHOOK_TIMEOUT_MS,
          allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
          retrySchedule: config.WEBHOOK_RETRY_SCHEDULE,
          retentionDays: config.EVENT_RETENTION_DAYS,
          onAttempt: (report) => app.metrics.webhookAttempt(report.result),
        },
        app.log,
      );
    });
    app.addHook('onClose', async () => worker?.stop());
  },
  { name: 'webhook-deliveries', dependencies: ['database', 'metrics'] },
);
