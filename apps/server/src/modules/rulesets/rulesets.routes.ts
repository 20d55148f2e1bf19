import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Rulesets and their excluded SKUs. */
export const rulesetsRoutes: FastifyPluginAsyncZod = async () => {};
