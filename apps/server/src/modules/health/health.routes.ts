import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { pendingMigrations, unknownMigrations } from '../../db/migrate';

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
        await sql`select 1`.execute(app.db);
        const pending = await pendingMigrations(app.db);
        if (pending.length > 0) return notReady(`Pending migrations: ${pending.join(', ')}`);
        // A newer version migrated the database (a rolling upgrade): what this server reads may be gone.
        const unknown = await unknownMigrations(app.db);
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
