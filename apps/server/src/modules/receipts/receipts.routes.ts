import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Receipt details by operation. */
export const receiptsRoutes: FastifyPluginAsyncZod = async () => {};
