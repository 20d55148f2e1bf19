import { eventFeed, eventFeedQuery } from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MANAGERS } from '../../plugins/auth';
import { readFeed } from './events.service';

/** The event feed for pollers (PROGRAMME-API §5). */
export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/v1/events',
    {
      preHandler: app.requireRole(...MANAGERS),
      schema: {
        tags: ['Events'],
        summary: 'Events after a cursor, in the order their transactions can no longer change (for pollers)',
        querystring: eventFeedQuery,
        response: { 200: eventFeed },
      },
    },
    async (request) =>
      readFeed(app.db, { after: request.query.after, limit: request.query.limit, types: request.query.type }),
  );
};
