import { afterAll, expect, it } from 'vitest';
import { TEST_JWT_SECRET } from '../../../test/helper';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { inTransaction } from '../../db/transaction';
import { metricValue, pollUntilMetric } from '../../plugins/metrics.test-support';
import { insertEvents } from './events.repository';
import { startReceiver } from './webhook-receiver.test-support';
import { adminApi, webhookTestContext } from './webhook-test-context.test-support';

const { ctx, db } = await webhookTestContext();
const api = adminApi(ctx);

// The app's own worker, on the same database, its log read by the test.
const lines: string[] = [];
const app = await buildApp({
  config: loadConfig({
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent',
    HOLD_SWEEP_INTERVAL_MS: '0',
    POINTS_EXPIRY_INTERVAL_MS: '0',
    WEBHOOK_POLL_INTERVAL_MS: '20',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_RETRY_SCHEDULE: '0',
  }),
  database: ctx.database,
  secrets: { jwtSecret: TEST_JWT_SECRET, posKeySecret: '0'.repeat(64) },
  logStream: { write: (line) => lines.push(line) },
});
await app.ready();
const receiver = await startReceiver();
afterAll(async () => {
  await app.close();
  await receiver.close();
});

const series = (outcome: string) => `loyalty_webhook_attempts_total{outcome="${outcome}"}`;

it('a receiver that is down shows: attempts by outcome on /metrics, and one warning when a delivery fails for good', async () => {
  const scrape = () => app.inject({ url: '/metrics' });
  const before = (await scrape()).body;
  // Every outcome is there from the start, at 0.
  for (const outcome of ['succeeded', 'failed_retrying', 'failed_final', 'gone'])
    expect(before).toContain(`${series(outcome)} 0`);

  receiver.always(500);
  const url = `${receiver.url}/hook?token=secret-in-the-url`;
  const hook = (await api('POST', '/api/v1/webhooks', { url, eventTypes: ['account.created'] })).id as string;
  const [event] = await inTransaction(db, (trx) =>
    insertEvents(trx, [{ type: 'account.created', data: {} }]),
  );

  // One attempt from the stream (a retry is scheduled: 0 s), then the retry, the last the schedule allows.
  const body = await pollUntilMetric(scrape, /loyalty_webhook_attempts_total\{outcome="failed_final"\} 1/);
  expect(metricValue(body, series('failed_retrying'))).toBe(1);
  expect(metricValue(body, series('succeeded'))).toBe(0);
  // A bounded label: no endpoint or URL in the series.
  expect(body).not.toMatch(/loyalty_webhook_attempts_total\{[^}]*(endpoint|url)/);

  const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  const failed = logged.filter((l) => String(l.msg).startsWith('webhook delivery failed'));
  expect(failed).toEqual([
    expect.objectContaining({
      level: 40,
      webhook: hook,
      event: String(event),
      attempts: 2,
      result: 'failed_final',
      msg: 'webhook delivery failed: no retries left',
    }),
  ]);
  // Never the URL (it may carry a token), in any line.
  expect(lines.join('\n')).not.toContain('secret-in-the-url');
});
