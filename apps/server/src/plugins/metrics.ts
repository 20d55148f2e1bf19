import { createHash, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_BACKLOG_CAP } from '@loyalty/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/connection';
import { AppError } from '../lib/app-error';
import { bearerCredential } from '../lib/bearer';
import type { AttemptResult } from '../modules/events/stream-batch';

/** The batches of POS writes a server forms: one card's group commit, or a kind's set-based batch. */
export type BatchKind = 'card' | 'accrual' | 'hold' | 'capture';

export interface Metrics {
  registry: Registry;
  /** One run of the hold sweeper: how it ended and how many holds it voided. */
  sweeperRun(outcome: 'ok' | 'error', voided: number): void;
  /** One run of the points-expiry sweeper: how it ended and how many points it expired. */
  expiryRun(outcome: 'ok' | 'error', points: number): void;
  /**
   * One shared transaction of POS writes (two or more): which kind of batch (`card`: one card's group commit;
   * `accrual`, `hold`, `capture`: a set-based batch across cards), its size, and whether it committed or was split.
   */
  groupCommitBatch(kind: BatchKind, size: number, outcome: 'committed' | 'split'): void;
  /** One webhook attempt of this server's worker, by what it did to its delivery. */
  webhookAttempt(result: AttemptResult): void;
}

const ATTEMPT_RESULTS: readonly AttemptResult[] = ['succeeded', 'failed_retrying', 'failed_final', 'gone'];

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

export interface MetricsOptions {
  /** When set, `GET /metrics` needs `Authorization: Bearer <token>`. */
  token?: string;
  poolStats?: () => PoolStats;
  /** Each active webhook endpoint's backlog counted up to `cap`, read when `/metrics` is scraped. */
  webhookBacklogs?: (cap: number) => Promise<{ id: string; backlog: number }[]>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Prometheus metrics on `GET /metrics`: requests and their latency by route pattern (never the raw URL,
 * whose ids would make a series per card), POS write outcomes by code, the database pool, the ledger's
 * sweepers, the size of group-committed POS batches and each webhook endpoint's backlog (a series per
 * endpoint: a handful), plus Node's process metrics. One registry per app, so tests can build many apps in a process.
 */
export const metricsPlugin = fp(
  async (app, options: MetricsOptions) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const labelNames = ['method', 'route', 'status_code'] as const;
    const requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames,
      registers: [registry],
    });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method, route pattern and status',
      labelNames,
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const posOutcomes = new Counter({
      name: 'loyalty_pos_outcomes_total',
      help: 'POS writes by operation and outcome code (OK, or the error code answered)',
      labelNames: ['operation', 'code', 'replayed'] as const,
      registers: [registry],
    });
    const sweeperRuns = new Counter({
      name: 'loyalty_hold_sweeper_runs_total',
      help: 'Runs of the expired-hold sweeper, by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    const sweeperVoided = new Counter({
      name: 'loyalty_hold_sweeper_voided_holds_total',
      help: 'Expired holds voided by the sweeper',
      registers: [registry],
    });
    const expiryRuns = new Counter({
      name: 'loyalty_points_expiry_runs_total',
      help: 'Runs of the points-expiry sweeper, by outcome',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    const expiredPoints = new Counter({
      name: 'loyalty_points_expired_total',
      help: 'Points expired by the sweeper',
      registers: [registry],
    });
    const poolStats = options.poolStats;
    if (poolStats) {
      new Gauge({
        name: 'loyalty_db_pool_connections',
        help: 'PostgreSQL pool: total connections, idle ones, and requests waiting for one',
        labelNames: ['state'] as const,
        registers: [registry],
        collect() {
          const stats = poolStats();
          this.set({ state: 'total' }, stats.total);
          this.set({ state: 'idle' }, stats.idle);
          this.set({ state: 'waiting' }, stats.waiting);
        },
      });
    }

    const backlogs = options.webhookBacklogs;
    if (backlogs) {
      new Gauge({
        name: 'loyalty_webhook_backlog_events',
        help: `Events and due retries each active webhook endpoint still has to get, counted up to ${WEBHOOK_BACKLOG_CAP}`,
        labelNames: ['endpoint'] as const,
        registers: [registry],
        async collect() {
          // An endpoint deleted or disabled since the last scrape has no series any more.
          this.reset();
          try {
            for (const { id, backlog } of await backlogs(WEBHOOK_BACKLOG_CAP))
              this.set({ endpoint: id }, backlog);
          } catch (error) {
            // The database is away: the scrape still answers (the pool gauge and /readyz tell why).
            app.log.warn({ err: error }, 'webhook backlogs not read for /metrics');
          }
        },
      });
    }

    const batches = new Histogram({
      name: 'loyalty_pos_group_commit_batch_size',
      help: 'POS writes per shared transaction (two or more), by kind (card: one card group-committed; accrual, hold, capture: set-based across cards) and outcome: committed, or split into one transaction each',
      labelNames: ['kind', 'outcome'] as const,
      buckets: [2, 4, 8, 16, 32, 64],
      registers: [registry],
    });

    const webhookAttempts = new Counter({
      name: 'loyalty_webhook_attempts_total',
      help: 'Webhook attempts made by this server, by outcome: succeeded, failed_retrying (a retry is scheduled), failed_final (retries used up: the delivery is failed), gone (410: failed, endpoint disabled)',
      labelNames: ['outcome'] as const,
      registers: [registry],
    });
    // Every outcome exposed from the start at 0, so a rate over it exists before the first failure.
    for (const outcome of ATTEMPT_RESULTS) webhookAttempts.inc({ outcome }, 0);

    app.decorate('metrics', {
      registry,
      sweeperRun(outcome, voided) {
        sweeperRuns.inc({ outcome });
        if (voided > 0) sweeperVoided.inc(voided);
      },
      expiryRun(outcome, points) {
        expiryRuns.inc({ outcome });
        if (points > 0) expiredPoints.inc(points);
      },
      groupCommitBatch(kind, size, outcome) {
        batches.observe({ kind, outcome }, size);
      },
      webhookAttempt(result) {
        webhookAttempts.inc({ outcome: result });
      },
    } satisfies Metrics);

    app.addHook('onSend', async (request, reply, payload) => {
      const operation = request.routeOptions.config?.posWrite;
      if (operation) {
        const replayed = reply.getHeader('idempotent-replayed') === 'true' ? 'true' : 'false';
        posOutcomes.inc({ operation, code: outcomeCode(reply.statusCode, payload), replayed });
      }
      return payload;
    });
    app.addHook('onResponse', async (request, reply) => {
      const labels = {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      };
      requests.inc(labels);
      duration.observe(labels, reply.elapsedTime / 1000);
    });

    const expected = options.token ? digest(options.token) : null;
    app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      if (expected) {
        const given = bearerCredential(request.headers.authorization) ?? '';
        if (!timingSafeEqual(digest(given), expected)) {
          reply.header('www-authenticate', 'Bearer realm="metrics"');
          throw new AppError('UNAUTHORIZED', 'A valid metrics token is required');
        }
      }
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);

function outcomeCode(status: number, payload: unknown): string {
  if (status < 400) return 'OK';
  try {
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString() : '';
    const code = (JSON.parse(text) as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z_]{1,64}$/.test(code)) return code;
  } catch {
    // not a JSON error body: fall back to the status
  }
  return `HTTP_${status}`;
}
