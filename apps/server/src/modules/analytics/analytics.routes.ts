import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Dashboard analytics. */
export const analyticsRoutes: FastifyPluginAsyncZod = async () => {};
