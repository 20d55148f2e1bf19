import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { pendingMigrations } from '../../db/migrate';

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
        summary: 'The database is reachable and fully migrated',
        response: {
          200: z.object({ status: z.literal('ready'), database: z.string() }),
          503: z.object({ status: z.number(), message: z.string(), code: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        const pending = await pendingMigrations(app.db);
        if (pending.length > 0) {
          return reply.code(503).send({
            status: 503,
            message: `Pending migrations: ${pending.join(', ')}`,
            code: 'SERVICE_UNAVAILABLE',
          });
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
