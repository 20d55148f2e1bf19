import {
  analyticsRangeQuery,
  cardsAnalytics as cardsAnalyticsBody,
  operationsAnalytics as operationsAnalyticsBody,
  pointsSummary as pointsSummaryBody,
  retentionAnalytics as retentionAnalyticsBody,
} from '@loyalty/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANY_ROLE } from '../../plugins/auth';
import { cardsAnalytics, operationsAnalytics, pointsSummary, retentionAnalytics } from './analytics.service';

const RANGE_RULE =
  'Buckets are UTC hours or days; one point per bucket overlapping [from, to), zero-filled, oldest first. ' +
  'groupBy defaults to hour for ranges up to 48 h, else day.';

/** Dashboard analytics, answered from rollups (never a scan of the raw tables); any role may read. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const anyRole = app.requireRole(...ANY_ROLE);

  app.get(
    '/api/v1/analytics/operations',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Analytics'],
        summary: 'Completed operations per bucket: count and volume (Σ |points|)',
        description: RANGE_RULE,
        querystring: analyticsRangeQuery,
        response: { 200: operationsAnalyticsBody },
      },
    },
    async (request) => operationsAnalytics(app.db, request.query),
  );

  app.get(
    '/api/v1/analytics/cards',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Analytics'],
        summary: 'Cards issued per bucket (issuedAt, else createdAt)',
        description: RANGE_RULE,
        querystring: analyticsRangeQuery,
        response: { 200: cardsAnalyticsBody },
      },
    },
    async (request) => cardsAnalytics(app.db, request.query),
  );

  app.get(
    '/api/v1/analytics/retention',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Analytics'],
        summary: 'Distinct accounts with a completed operation, per bucket',
        description: `${RANGE_RULE} A daily point counts the accounts active that day; ranges are not unioned. An expiry (the programme acting on a dormant account) is not the member's activity and does not count.`,
        querystring: analyticsRangeQuery,
        response: { 200: retentionAnalyticsBody },
      },
    },
    async (request) => retentionAnalytics(app.db, request.query),
  );

  app.get(
    '/api/v1/analytics/bonuses-circulation',
    {
      preHandler: anyRole,
      schema: {
        tags: ['Analytics'],
        summary: 'Points in circulation: total, held and active (total − held), as of calculatedAt',
        response: { 200: pointsSummaryBody },
      },
    },
    async () => pointsSummary(app.db),
  );
};
