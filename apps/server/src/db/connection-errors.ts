/**
 * Errors that mean "the database connection is gone or cannot be had right now", as opposed to errors
 * about the statement. Requests that meet one answer 503 SERVICE_UNAVAILABLE (the client may retry; a POS
 * write with its operationId is idempotent), and nothing they did is committed: a transaction whose
 * connection dies is rolled back by the server.
 */

// SQLSTATE class 08 (connection exception), the operator-intervention codes a restart or
// pg_terminate_backend produce (57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now), and
// the session ended by a timeout (25P03 idle_in_transaction_session_timeout, which connection.ts sets; 25P04
// transaction_timeout, PostgreSQL 17). A statement sent just as the server ends the session gets that FATAL
// as its own error rather than a closed connection, and must be answered the same way.
// Also what a connection attempt is refused with: 3D000 (the database dropped or renamed), class 28 (the role
// or its password gone), 53300 too_many_connections (servers' pools together past max_connections). Those
// answered 500 INTERNAL_ERROR while /readyz said 503. (Other class 53 errors, a full disk, are a statement's.)
// 57P03 cannot_connect_now is a server starting up, shutting down or in recovery. 55000 (a database closed with
// `allow_connections false`, a common maintenance step) is object_not_in_prerequisite_state, which statements
// also raise (currval before nextval, …), so only its refusal message counts; any refusal at connect is also
// caught by `markAcquireFailure` below.
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '25P03', '25P04', '3D000', '53300']);
const NOT_ACCEPTING_CONNECTIONS = { code: '55000', message: 'is not currently accepting connections' };
const SQLSTATE_CLASSES = ['08', '28'];
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
// node-postgres reports a lost socket with plain Errors that carry no code.
const MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  'Cannot use a pool after calling end',
];

/**
 * Errors met while acquiring a connection (out of pool.connect: the TCP connect, the start-up handshake, the
 * wait for a free connection). Whatever PostgreSQL's reason (a database closed to connections, a role without
 * LOGIN, a code this list does not know yet), the request never reached its statement: it is an outage to
 * the request, answered 503, never a 500. Marked where they are thrown (connection.ts) rather than guessed
 * from their code, so a statement's error on an established connection keeps its meaning.
 */
const acquireFailures = new WeakSet<object>();

export function markAcquireFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) acquireFailures.add(error);
  return error;
}

export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (acquireFailures.has(error)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (SQLSTATE_CLASSES.some((c) => code.startsWith(c)) || SQLSTATES.has(code) || SOCKET_CODES.has(code))
      return true;
    if (code === NOT_ACCEPTING_CONNECTIONS.code && error.message.includes(NOT_ACCEPTING_CONNECTIONS.message))
      return true;
  }
  if (MESSAGES.some((m) => error.message.includes(m))) return true;
  // AggregateError (several addresses refused) and errors wrapped with a cause.
  if (error instanceof AggregateError && error.errors.some(isConnectionError)) return true;
  return error.cause !== undefined && error.cause !== error && isConnectionError(error.cause);
}
