import type { errorCatalogue } from '@loyalty/contracts';
import { notify } from '@/lib/toast';
import { isApiError, NETWORK_ERROR_MESSAGE, TIMEOUT_CODE } from './api-client';

/**
 * Spec section 8 "Toasts by error code", word for word. The type ties every message to the contracts'
 * error catalogue, so the two cannot drift apart. Other codes fall back to their HTTP status.
 */
const codeMessages = {
  ACCOUNT_NOT_FOUND: 'Account not found',
  CARD_BLOCKED: 'Card is blocked',
  CARD_NOT_FOUND: 'Card not found',
  INSUFFICIENT_FUNDS: 'Insufficient funds',
  CARD_LIMIT_EXCEEDED: 'Card limit exceeded for this client',
  HOLD_NOT_FOUND: 'Hold not found',
  HOLD_EXPIRED: 'Hold expired',
  ALREADY_CAPTURED_OR_CLOSED: 'Hold already captured or closed',
  NO_ACTIVE_HOLD_FOR_POS: 'No active hold for POS',
  OPERATION_ID_ALREADY_USED: 'Operation ID already used',
  OPERATION_ID_USED_BY_OTHER_POS: 'Operation ID used by other POS',
  INVALID_CREDENTIALS: 'Invalid username or password',
  UNAUTHORIZED: 'Session expired. Please log in again.',
  TOKEN_EXPIRED: 'Token expired. Please log in again.',
  NO_TOKEN: 'Authentication required',
  FORBIDDEN: 'You do not have permission to perform this action',
  VALIDATION_ERROR: 'Invalid input data',
  BAD_REQUEST: 'Bad request',
} as const satisfies { [K in SpecErrorCode]: Catalogue[K]['message'] };

type Catalogue = typeof errorCatalogue;
type SpecErrorCode =
  | 'ACCOUNT_NOT_FOUND'
  | 'CARD_BLOCKED'
  | 'CARD_NOT_FOUND'
  | 'INSUFFICIENT_FUNDS'
  | 'CARD_LIMIT_EXCEEDED'
  | 'HOLD_NOT_FOUND'
  | 'HOLD_EXPIRED'
  | 'ALREADY_CAPTURED_OR_CLOSED'
  | 'NO_ACTIVE_HOLD_FOR_POS'
  | 'OPERATION_ID_ALREADY_USED'
  | 'OPERATION_ID_USED_BY_OTHER_POS'
  | 'INVALID_CREDENTIALS'
  | 'UNAUTHORIZED'
  | 'TOKEN_EXPIRED'
  | 'NO_TOKEN'
  | 'FORBIDDEN'
  | 'VALIDATION_ERROR'
  | 'BAD_REQUEST';

function isSpecCode(code: string | undefined): code is SpecErrorCode {
  return code !== undefined && Object.hasOwn(codeMessages, code);
}

export const UNEXPECTED_ERROR_MESSAGE = 'An unexpected error occurred';

function byStatus(status: number, message: string): string {
  switch (status) {
    case 0:
      return NETWORK_ERROR_MESSAGE;
    case 400:
      return `Invalid request: ${message}`;
    case 401:
      return 'Authentication required. Please log in.';
    case 403:
      return 'Access denied.';
    case 404:
      return 'Resource not found.';
    case 409:
      return `Conflict: ${message}`;
    case 413:
      return 'Request body is too large.';
    case 422:
      return `Validation failed: ${message}`;
    case 500:
      return 'Server error. Please try again later.';
    case 502:
    case 503:
    case 504:
      return 'Service temporarily unavailable. Please try again later.';
    default:
      return message || UNEXPECTED_ERROR_MESSAGE;
  }
}

/**
 * What the server said, once (the description under a screen toast like 'Failed to create user'): a validation failure's first field message without its field path
 * ('Password must be at least 8 characters', not 'password: Password must be…').
 */
export function getServerMessage(error: unknown): string {
  if (isApiError(error)) {
    const detail = error.code === 'VALIDATION_ERROR' ? error.details?.[0]?.message : undefined;
    if (detail) return detail;
    // A proxy's status line ("Bad Gateway") is not the server's word: the status's own sentence says it.
    if (error.status !== 0 && error.explained && error.message) return error.message;
  }
  return getErrorMessage(error);
}

/** The user-facing text for an error: by code first, else by HTTP status (spec section 8). */
export function getErrorMessage(error: unknown): string {
  if (isApiError(error)) {
    if (isSpecCode(error.code)) return codeMessages[error.code];
    // No answer in time is not "check your connection": what the call did is unknown, and the message says so.
    if (error.code === TIMEOUT_CODE) return error.message;
    return byStatus(error.status, error.message);
  }
  if (error instanceof Error && error.message) return error.message;
  return UNEXPECTED_ERROR_MESSAGE;
}

/**
 * The text after a context label ('Create account: …'): one prefix only. A 4xx the server explained
 * (409 conflict, 400/422 refusal) shows its own words instead of a second 'Conflict: ' prefix; a
 * validation failure shows its field message.
 */
function messageAfterContext(error: unknown): string {
  if (isApiError(error)) {
    if (error.code === 'VALIDATION_ERROR' && error.details?.length) return getServerMessage(error);
    if (isSpecCode(error.code)) return codeMessages[error.code];
    if ([400, 409, 422].includes(error.status) && error.explained && error.message) return error.message;
  }
  return getErrorMessage(error);
}

export interface HandleErrorOptions {
  /** Prefixes the mapped message: "Load accounts: Account not found". */
  context?: string;
  /** A screen toast title ("Failed to create user"); the server's message becomes the description. */
  title?: string;
}

/**
 * The one place an error becomes a toast, saying the message once. A 401 has already ended the session
 * (api-client), so it shows one session toast (deduplicated) instead of the screen's message.
 */
export function handleServerError(error: unknown, options: HandleErrorOptions | string = {}): void {
  const { context, title } = typeof options === 'string' ? { context: options, title: undefined } : options;
  if (isApiError(error) && error.status === 401 && error.code !== 'INVALID_CREDENTIALS') {
    notify.error(getErrorMessage(error), { id: 'session-ended' });
    return;
  }
  if (title) {
    notify.error(title, { description: getServerMessage(error) });
    return;
  }
  notify.error(context ? `${context}: ${messageAfterContext(error)}` : getErrorMessage(error));
}
