import type { FastifyRequest } from 'fastify';

/**
 * The paths whose next segment names a member: a client lookup's client ID or card number (the API's, and
 * the console's own page of a client, `/clients/<card number>`, reloaded or linked), a till's card balance. Compared segment by segment as the router reads them, percent-decoded: `/pos/api/v1/%63ards/…`
 * reaches the cards route, and a pattern over the raw URL logged its card number.
 */
const MEMBER_AFTER = [
  ['', 'api', 'v1', 'clients'],
  ['', 'clients'],
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
    if (
      segments.length > at &&
      segments[at] !== '' &&
      prefix.every((name, i) => decodedSegment(segments[i]!) === name)
    ) {
      segments[at] = REDACTED;
      return segments.join('/');
    }
  }
  return path;
}

/** Query parameters whose values may name a member (a list's search text, a filter by client or card). */
const MEMBER_IN_QUERY = new Set(['search', 'clientId', 'cardNumber', 'card', 'number']);

/** The console's Client Lookup keeps its term in the address: `/clients?id=<client ID or card number>`. */
const MEMBER_IN_QUERY_OF: Record<string, ReadonlySet<string>> = { '/clients': new Set(['id']) };

const REDACTED = '[redacted]';

/**
 * A request URL as the access log keeps it: without the member identifiers it may carry (client IDs and card
 * numbers, in the path or the query), so logs hold no member's identity, which an erasure (PROGRAMME-API
 * "member data rights") could not reach. Everything else stays, for reading the log.
 */
export function loggedUrl(url: string): string {
  const at = url.indexOf('?');
  const rawPath = at === -1 ? url : url.slice(0, at);
  const path = withoutMember(rawPath);
  if (at === -1) return path;
  const ofPath = MEMBER_IN_QUERY_OF[rawPath.split('/').map(decodedSegment).join('/').replace(/\/+$/, '')];
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
      const member = MEMBER_IN_QUERY.has(decoded) || ofPath?.has(decoded);
      return member && eq !== -1 ? `${name}=${REDACTED}` : pair;
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
