import type { FastifyRequest } from 'fastify';

/** Path segments that name a member: a client lookup's client ID or card number, a till's card balance. */
const MEMBER_IN_PATH = [/^(\/api\/v1\/clients\/)[^/?]+/, /^(\/pos\/api\/v1\/cards\/)[^/?]+/];

/** Query parameters whose values may name a member (a list's search text, a filter by client or card). */
const MEMBER_IN_QUERY = new Set(['search', 'clientId', 'cardNumber', 'card', 'number']);

const REDACTED = '[redacted]';

/**
 * A request URL as the access log keeps it: without the member identifiers it may carry (client IDs and card
 * numbers, in the path or the query), so logs hold no member's identity, which an erasure (PROGRAMME-API
 * "member data rights") could not reach. Everything else stays, for reading the log.
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  let path = at === -1 ? url : url.slice(0, at);
  for (const pattern of MEMBER_IN_PATH) path = path.replace(pattern, `$1${REDACTED}`);
  if (at === -1) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as sent; it names no known parameter.
      }
      return MEMBER_IN_QUERY.has(decoded) && eq !== -1 ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** What a request's log line shows: Fastify's default fields, the URL as `loggedUrl` keeps it. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
