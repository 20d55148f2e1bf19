import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationState } from '../../db/migrate';

/**
 * How long /readyz waits for the database. A request waits up to 30 s for a connection (connection.ts), but a
 * balancer's probe times out long before that and then says nothing about why; with every connection taken
 * (an exclusive lock held, requests queued behind it) the probe answers 503 "busy" instead, within its own timeout.
 */
export const READINESS_TIMEOUT_MS = 2000;

type Readiness = Awaited<ReturnType<typeof migrationState>>;

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  // One check at a time: probes arriving while one still waits for a connection share it, so a busy pool
  // holds at most one readiness read in its queue (each ends when a connection frees or the pool's own
  // connect timeout passes), not one per probe.
  let checking: Promise<Readiness> | null = null;
  const readiness = () => {
    checking ??= migrationState(app.db).finally(() => {
      checking = null;
    });
    return checking;
  };

  app.get(
    '/healthz',
    {
      schema: {
        tags: ['Health'],
        summary: 'The process is up',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['Health'],
        summary: 'The server takes requests: the database is reachable and migrated to this version',
        response: {
          200: z.object({ status: z.literal('ready'), database: z.string() }),
          503: z.object({
            status: z.number(),
            message: z.string(),
            code: z.string(),
            requestId: z.string(),
          }),
        },
      },
    },
    async (request, reply) => {
      // The one error envelope (ARCHITECTURE): the request id finds a balancer's failed probe in the log.
      const notReady = (message: string) =>
        reply
          .code(503)
          // As every 503 of the API (its document says so): a poller may ask again after a second.
          .header('retry-after', '1')
          .send({ status: 503, message, code: 'SERVICE_UNAVAILABLE', requestId: request.id });
      // Draining before a shutdown (start.ts): the balancer takes this server out while it still serves.
      if (app.lifecycle.draining || app.lifecycle.closing) return notReady('Shutting down');
      try {
        // One read: the database answers, and is migrated to this version (no more, no less).
        let timer: NodeJS.Timeout | undefined;
        const state = await Promise.race([
          readiness(),
          new Promise<'busy'>((resolve) => {
            timer = setTimeout(() => resolve('busy'), READINESS_TIMEOUT_MS);
          }),
        ]).finally(() => clearTimeout(timer));
        if (state === 'busy') {
          return notReady(
            `Database busy: no connection within ${READINESS_TIMEOUT_MS / 1000} s (requests are queueing for one)`,
          );
        }
        const { pending, unknown } = state;
        if (pending.length > 0) return notReady(`Pending migrations: ${pending.join(', ')}`);
        // A newer version migrated the database (a rolling upgrade): what this server reads may be gone.
        if (unknown.length > 0) {
          return notReady(
            `The database was migrated by a newer version (migrations this server does not know: ${unknown.join(', ')}); upgrade or stop this server`,
          );
        }
        return { status: 'ready' as const, database: app.databaseKind };
      } catch {
        return notReady('Database unreachable');
      }
    },
  );
};
