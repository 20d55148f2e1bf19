import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { bearer, createTestContext } from '../../test/helper';
import { createPosKey, newCardNumber } from '../modules/pos/pos.fixtures';
import { metricsPlugin } from './metrics';
import { pollUntilMetric } from './metrics.test-support';

const TOKEN = 'metrics-token-0123456789';
const ctx = await createTestContext({
  METRICS_TOKEN: TOKEN,
  HOLD_SWEEP_INTERVAL_MS: '20',
  POINTS_EXPIRY_INTERVAL_MS: '20',
});
const { app } = ctx;
const scrape = () => app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });

describe('GET /metrics', () => {
  it('needs the METRICS_TOKEN as a Bearer token when one is set', async () => {
    const none = await app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(none.headers['www-authenticate']).toContain('Bearer');
    const wrong = await app.inject({ url: '/metrics', headers: { authorization: 'Bearer nope' } });
    expect(wrong.statusCode).toBe(401);
    // A session token is not the metrics token.
    const session = await app.inject({ url: '/metrics', headers: bearer(ctx.tokens.ADMIN) });
    expect(session.statusCode).toBe(401);

    // Read as the sessions' Bearer header is (RFC 6750): the scheme in any case, one or more spaces.
    const spaced = await app.inject({ url: '/metrics', headers: { authorization: `bearer  ${TOKEN}` } });
    expect(spaced.statusCode).toBe(200);

    const ok = await scrape();
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toContain('text/plain');
    expect(ok.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(ok.body).toContain('process_cpu_user_seconds_total');
  });

  it('counts requests and their latency by route pattern, not by raw URL', async () => {
    const accountId = '00000000-0000-4000-8000-000000000000';
    await app.inject({ url: `/api/v1/accounts/${accountId}`, headers: bearer(ctx.tokens.VIEWER) });
    await app.inject({ url: '/api/v1/no-such-route' });
    const { body } = await scrape();
    expect(body).toMatch(
      /http_requests_total\{method="GET",route="\/api\/v1\/accounts\/:id",status_code="404"\} 1/,
    );
    expect(body).toMatch(
      /http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/api\/v1\/accounts\/:id",status_code="404"\} 1/,
    );
    expect(body).toMatch(/route="unmatched",status_code="404"/);
    expect(body).not.toContain(accountId);
  });

  it('counts POS write outcomes by code', async () => {
    const { apiKey } = await createPosKey(ctx);
    const cardNumber = newCardNumber();
    const hold = (operationId: string) =>
      app.inject({
        method: 'POST',
        url: '/pos/api/v1/holds',
        headers: { 'x-api-key': apiKey },
        payload: { operationId, cardNumber, points: 5 },
      });
    expect((await hold('m-1')).statusCode).toBe(404);
    expect((await hold('m-1')).statusCode).toBe(404);
    const { body } = await scrape();
    expect(body).toMatch(
      /loyalty_pos_outcomes_total\{operation="hold",code="CARD_NOT_FOUND",replayed="false"\} 1/,
    );
    expect(body).toMatch(
      /loyalty_pos_outcomes_total\{operation="hold",code="CARD_NOT_FOUND",replayed="true"\} 1/,
    );
  });

  it("counts the ledger sweepers' runs, and reports the pool on PostgreSQL", async () => {
    await pollUntilMetric(scrape, /loyalty_points_expiry_runs_total\{outcome="ok"\} [1-9]/);
    const body = await pollUntilMetric(scrape, /loyalty_hold_sweeper_runs_total\{outcome="ok"\} [1-9]/);
    if (ctx.database.kind === 'postgres') {
      expect(body).toMatch(/loyalty_db_pool_connections\{state="total"\} [1-9]/);
      expect(body).toMatch(/loyalty_db_pool_connections\{state="waiting"\} 0/);
    } else {
      expect(body).not.toContain('loyalty_db_pool_connections');
    }
  });
});

describe('GET /metrics without METRICS_TOKEN', async () => {
  const open = await createTestContext();
  it('is open (keep it on a private network, or set the token)', async () => {
    const res = await open.app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('http_requests_total');
  });
});

describe('GET /metrics while the database is away', () => {
  it('still answers, without webhook backlog series', async () => {
    const bare = Fastify({ logger: false });
    await bare.register(metricsPlugin, {
      webhookBacklogs: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')),
    });
    try {
      const res = await bare.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('# TYPE loyalty_webhook_backlog_events gauge');
      expect(res.body).not.toContain('loyalty_webhook_backlog_events{');
    } finally {
      await bare.close();
    }
  });
});
