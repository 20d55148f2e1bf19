import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Accounts and manual accrual. */
export const accountsRoutes: FastifyPluginAsyncZod = async () => {};
