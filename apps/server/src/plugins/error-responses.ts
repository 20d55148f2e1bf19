import { errorBody } from '@loyalty/contracts';
import type { RouteOptions } from 'fastify';
import { hasRoleCheck } from './auth';
import { isApiPath } from './errors';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface RouteSchema {
  hide?: boolean;
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  security?: unknown[];
  response?: Record<string | number, unknown>;
}

/**
 * The error statuses a route can answer, from what kind of route it is, so that every operation in
 * the API document declares them (issue 15.6) without a hand-kept list per route:
 * - any input (body, query, path) or a write method (a body that is not JSON) → 400;
 * - a write → 413 (body too large) and 415 (a content type the route does not take: JSON, or CSV for imports);
 * - authenticated → 401; with a role check → 403;
 * - a path parameter names a resource → 404, and may be longer than Fastify accepts → 414;
 * - an authenticated write can name a resource in its body (404) and conflict with the state (409);
 * - every route → 500 and 503 (the database is unreachable).
 * Statuses a route declares itself (a 429 on sign-in, a POS route's own list) are kept as they are.
 */
export function errorStatusesOf(route: RouteOptions, schema: RouteSchema): number[] {
  const methods = [route.method].flat();
  const write = methods.some((m) => WRITES.has(m));
  const authenticated = (schema.security?.length ?? 0) > 0;
  const statuses = new Set<number>([500, 503]);
  if (schema.body || schema.querystring || schema.params || write) statuses.add(400);
  if (write) {
    statuses.add(413);
    statuses.add(415);
  }
  if (authenticated) statuses.add(401);
  if (hasRoleCheck(route)) statuses.add(403);
  if (schema.params) {
    statuses.add(404);
    statuses.add(414);
  }
  if (write && authenticated) {
    statuses.add(404);
    statuses.add(409);
  }
  return [...statuses];
}

/** onRoute: complete the route's documented responses with the error envelope for each status it can answer. */
export function declareErrorResponses(route: RouteOptions) {
  const schema = route.schema as RouteSchema | undefined;
  if (!schema || schema.hide) return;
  // Routes outside the session scope say so; the rest of the API inherits the document's Bearer default.
  if (schema.security === undefined) {
    schema.security = isApiPath(route.url) && !route.url.startsWith('/pos/') ? [{ bearerAuth: [] }] : [];
  }
  const response = { ...(schema.response ?? {}) };
  for (const status of errorStatusesOf(route, schema)) {
    if (!(status in response)) response[status] = errorBody;
  }
  schema.response = response;
}
