import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Operations history. */
export const operationsRoutes: FastifyPluginAsyncZod = async () => {};
