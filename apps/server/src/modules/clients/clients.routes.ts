import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Client lookup. */
export const clientsRoutes: FastifyPluginAsyncZod = async () => {};
