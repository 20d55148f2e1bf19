/**
 * The error catalogue. Every error response is `{status, message, code}` (plus optional `requestId`
 * and `details`). Codes of the spec's section 8 come first; codes this product adds follow, each with
 * the HTTP status the server answers and the default message. The console maps codes to toasts.
 */
export const errorCatalogue = {
  // spec section 8
  ACCOUNT_NOT_FOUND: { status: 404, message: 'Account not found' },
  CARD_BLOCKED: { status: 409, message: 'Card is blocked' },
  CARD_NOT_FOUND: { status: 404, message: 'Card not found' },
  INSUFFICIENT_FUNDS: { status: 409, message: 'Insufficient funds' },
  CARD_LIMIT_EXCEEDED: { status: 409, message: 'Card limit exceeded for this client' },
  HOLD_NOT_FOUND: { status: 404, message: 'Hold not found' },
  HOLD_EXPIRED: { status: 409, message: 'Hold expired' },
  ALREADY_CAPTURED_OR_CLOSED: { status: 409, message: 'Hold already captured or closed' },
  NO_ACTIVE_HOLD_FOR_POS: { status: 404, message: 'No active hold for POS' },
  OPERATION_ID_ALREADY_USED: { status: 409, message: 'Operation ID already used' },
  OPERATION_ID_USED_BY_OTHER_POS: { status: 409, message: 'Operation ID used by other POS' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  UNAUTHORIZED: { status: 401, message: 'Session expired. Please log in again.' },
  TOKEN_EXPIRED: { status: 401, message: 'Token expired. Please log in again.' },
  NO_TOKEN: { status: 401, message: 'Authentication required' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to perform this action' },
  VALIDATION_ERROR: { status: 400, message: 'Invalid input data' },
  BAD_REQUEST: { status: 400, message: 'Bad request' },
  // added by this product
  NOT_FOUND: { status: 404, message: 'Resource not found' },
  CONFLICT: { status: 409, message: 'Conflict' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many attempts. Please wait and try again.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Content type must be application/json' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed on this path' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  URI_TOO_LONG: { status: 414, message: 'The request URL is too long' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request headers are too large' },
  // Served files (the console, Swagger UI): a conditional request whose condition fails, a range past the end.
  PRECONDITION_FAILED: { status: 412, message: 'A precondition of the request does not hold' },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested range is not within the file' },
  INTERNAL_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
  USER_NOT_FOUND: { status: 404, message: 'User not found' },
  USERNAME_TAKEN: { status: 409, message: 'Username already exists' },
  CANNOT_DELETE_SELF: { status: 409, message: 'You cannot delete your own account' },
  LAST_ADMIN: { status: 409, message: 'The last administrator cannot be deleted' },
  RULESET_NOT_FOUND: { status: 404, message: 'Ruleset not found' },
  RULESET_VERSION_TAKEN: { status: 409, message: 'A ruleset with this version already exists' },
  SKU_ALREADY_EXCLUDED: { status: 409, message: 'SKU is already excluded in this ruleset' },
  SKU_NOT_EXCLUDED: { status: 404, message: 'SKU is not excluded in this ruleset' },
  CLIENT_ID_TAKEN: { status: 409, message: 'An account with this client ID already exists' },
  ERASE_NOT_CONFIRMED: {
    status: 400,
    message: "The confirmation does not match the account's client ID",
  },
  // PROGRAMME-API §4: an erased member's reasons are cleared, so no new free text (a staff reason) may reach them.
  ACCOUNT_ERASED: {
    status: 409,
    message: "This member's data was erased; no points can be added or removed by hand",
  },
  CARD_NOT_ACTIVE: { status: 409, message: 'Only an active card can be blocked' },
  CARD_NOT_REISSUABLE: { status: 409, message: 'Only an active or blocked card can be reissued' },
  OPERATION_NOT_FOUND: { status: 404, message: 'Operation not found' },
  RECEIPT_NOT_FOUND: { status: 404, message: 'Receipt not found' },
  NO_ACTIVE_RULESET: { status: 409, message: 'No ruleset is in force' },
  POS_KEY_NOT_FOUND: { status: 404, message: 'POS key not found' },
  RETURN_NOT_ALLOWED: { status: 409, message: 'Nothing left to return for this operation' },
  RULESET_ALREADY_RETIRED: { status: 409, message: 'This ruleset is already retired' },
  CARD_ALREADY_REISSUED: { status: 409, message: 'This card was already reissued' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'Webhook endpoint not found' },
  DELIVERY_NOT_FOUND: { status: 404, message: 'Webhook delivery not found' },
  IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    message: 'This Idempotency-Key was already used with a different request',
  },
  // PROGRAMME-API.md §4: import rows (in the report) and a file that is not the expected CSV (400).
  ACCOUNT_EXISTS: { status: 409, message: 'Another account has this client ID' },
  CARD_EXISTS: { status: 409, message: 'This card number is already issued' },
  INVALID_CSV: { status: 400, message: 'The file is not a valid CSV of the expected columns' },
  BALANCE_LIMIT_EXCEEDED: {
    status: 409,
    message: 'The balance would exceed its limit of 999999999999.99 points',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

/**
 * The one code of each status, for an error that comes with a status and no code of ours (Fastify's own and
 * its plugins': @fastify/static's 403 for a path it refuses, 412, 416, …). Each code here is the catalogue's
 * for that very status, so a response's code never contradicts its status.
 */
const codeByStatus = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
  429: 'TOO_MANY_REQUESTS',
  431: 'HEADERS_TOO_LARGE',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
} as const satisfies Record<number, ErrorCode>;

/** The code of a status (see codeByStatus); undefined for a status the catalogue has no code for. */
export function codeOfStatus(status: number): ErrorCode | undefined {
  return (codeByStatus as Record<number, ErrorCode | undefined>)[status];
}

export interface FieldError {
  field: string;
  message: string;
}

export interface ApiErrorBody {
  status: number;
  message: string;
  code?: string;
  requestId?: string;
  details?: FieldError[];
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in errorCatalogue;
}
