import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Cards: list, issue, block, reissue. */
export const cardsRoutes: FastifyPluginAsyncZod = async () => {};
