import type { FastifyRequest } from 'fastify';

/**
 * The paths whose next segment names a member: a client lookup's client ID or card number, a till's card
 * balance. Compared segment by segment as the router reads them, percent-decoded: `/pos/api/v1/%63ards/…`
 * reaches the cards route, and a pattern over the raw URL logged its card number.
 */
const MEMBER_AFTER = [
  ['', 'api', 'v1', 'clients'],
  ['', 'pos', 'api', 'v1', 'cards'],
];

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function withoutMember(path: string): string {
  const segments = path.split('/');
  for (const prefix of MEMBER_AFTER) {
    const at = prefix.length;
    if (segments.length > at && prefix.every((name, i) => decodedSegment(segments[i]!) === name)) {
      segments[at] = REDACTED;
      return segments.join('/');
    }
  }
  return path;
}

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
  const path = withoutMember(at === -1 ? url : url.slice(0, at));
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
