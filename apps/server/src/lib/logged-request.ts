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

/** Query parameters that hold a UUID by contract: any other value may be a client ID typed in their place. */
const UUID_IN_QUERY = new Set(['targetId', 'accountId']);

const REDACTED = '[redacted]';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A request URL as the access log keeps it: without the member identifiers it may carry (client IDs and card
 * numbers, in the path or the query), so logs hold no member's identity, which an erasure (PROGRAMME-API
 * "member data rights") could not reach. Everything else stays, for reading the log.
 */
export function loggedUrl(url: string, pattern?: string | null): string {
  const at = url.indexOf('?');
  const rawPath = at === -1 ? url : url.slice(0, at);
  const path = withoutStrayMembers(withoutMember(rawPath), pattern);
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
      const member =
        MEMBER_IN_QUERY.has(decoded) ||
        ofPath?.has(decoded) ||
        (UUID_IN_QUERY.has(decoded) && !UUID.test(decodedSegment(pair.slice(eq + 1))));
      return member && eq !== -1 ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/**
 * Path parameters that are not UUIDs and name no member: a till's own operationIds, a SKU. Every other
 * parameter is a UUID by contract, so anything else sent there is most likely a client ID or card number
 * pasted where the account's or card's id belongs (the spec calls the client ID "Account ID").
 */
const FREE_TEXT_PARAMS: Record<string, ReadonlySet<string>> = {
  '/pos/api/v1/holds/:holdId/capture': new Set(['holdId']),
  '/pos/api/v1/holds/:holdId/release': new Set(['holdId']),
  '/api/v1/rulesets/:id/excluded-skus/:sku': new Set(['sku']),
  '/api/v1/receipts/operation/:id': new Set(['id']),
};

/** The API's own prefixes: below them, a path no route matched may still carry a member's identifier. */
const API_PREFIXES = [
  ['', 'api', 'v1'],
  ['', 'pos', 'api', 'v1'],
];

/**
 * The path with every segment that may name a member redacted, read against the route that matched it: a
 * parameter outside its UUID contract (a 400 for the request, but its log line would keep the value); with no
 * route (`null`, a 404), every segment under the API's resource name but a UUID. `undefined`: not known.
 */
function withoutStrayMembers(path: string, pattern: string | null | undefined): string {
  if (pattern === undefined) return path;
  const segments = path.split('/');
  const decoded = segments.map(decodedSegment);
  const patternSegments = pattern?.split('/');
  if (patternSegments && !pattern!.includes('*') && patternSegments.length === segments.length) {
    const free = FREE_TEXT_PARAMS[pattern!];
    return segments
      .map((segment, i) => {
        const name = patternSegments[i]!;
        if (!name.startsWith(':') || segment === REDACTED) return segment;
        return UUID.test(decoded[i]!) || free?.has(name.slice(1)) ? segment : REDACTED;
      })
      .join('/');
  }
  if (pattern) return path;
  const prefix = API_PREFIXES.find((p) => p.every((name, i) => decoded[i] === name));
  if (!prefix) return path;
  return segments
    .map((segment, i) =>
      i <= prefix.length || segment === '' || segment === REDACTED || UUID.test(decoded[i]!)
        ? segment
        : REDACTED,
    )
    .join('/');
}

/** What a request's log line shows: Fastify's default fields, the URL as `loggedUrl` keeps it. */
export function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    // A request no route matched has no pattern: null, read as a 404's path.
    url: loggedUrl(request.url, request.routeOptions?.url ?? null),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
