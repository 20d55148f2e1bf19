import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { migrationState } from '../../db/migrate';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
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
          503: z.object({ status: z.number(), message: z.string(), code: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      const notReady = (message: string) =>
        reply.code(503).send({ status: 503, message, code: 'SERVICE_UNAVAILABLE' });
      // Draining before a shutdown (start.ts): the balancer takes this server out while it still serves.
      if (app.lifecycle.draining || app.lifecycle.closing) return notReady('Shutting down');
      try {
        // One read: the database answers, and is migrated to this version (no more, no less).
        const { pending, unknown } = await migrationState(app.db);
        if (pending.length > 0) return notReady(`Pending migrations: ${pending.join(', ')}`);
        // A newer version migrated the database (a rolling upgrade): what this server reads may be gone.
        if (unknown.length > 0) {
          return notReady(
            `The database was migrated by a newer version (migrations this server does not know: ${unknown.join(', ')}); upgrade or stop this server`,
          );
        }
        return { status: 'ready' as const, database: app.databaseKind };
      } catch {
        return reply
          .code(503)
          .send({ status: 503, message: 'Database unreachable', code: 'SERVICE_UNAVAILABLE' });
      }
    },
  );
};
