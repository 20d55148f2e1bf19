import type { ApiErrorBody, FieldError } from '@loyalty/contracts';
import { noteServerDate } from './server-clock';
import { endSessionOf, followOtherUser, getToken, isOtherUsersToken } from './session';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: QueryParams;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the session token (default). Off for the login call, whose 401 is a wrong password. */
  auth?: boolean;
  /** The caller reports the error itself: the global handler shows no toast. */
  silent?: boolean;
  signal?: AbortSignal;
  /**
   * How long to wait for the answer: undefined for the console's limit (`REQUEST_TIMEOUT_MS`), null for none.
   * A file upload (a Blob body) has none unless given one.
   */
  timeoutMs?: number | null;
  /**
   * Whether the call may change something on the server (default: any method but GET). It picks what a
   * timeout says: "it may have been saved" only when something could have been; a POST that writes nothing
   * (a backtest) says to try again.
   */
  writes?: boolean;
}

export const NETWORK_ERROR_MESSAGE = 'Network error. Please check your connection.';
export const SIGNED_IN_ELSEWHERE_MESSAGE = 'Signed in as another user in another tab.';

/**
 * How long a call waits for the server's answer (headers and body) before it gives up. Without a limit, a
 * write whose answer never came kept its dialog saying "Adding..." with no way out but a reload.
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** The code of a call that had no answer in time: the server may or may not have done what was asked. */
export const TIMEOUT_CODE = 'REQUEST_TIMEOUT';
export const WRITE_TIMEOUT_MESSAGE =
  'No answer from the server. It may have been saved: check before trying again.';
export const READ_TIMEOUT_MESSAGE = 'No answer from the server. Please try again.';

declare global {
  interface Window {
    /** The browser tests shorten the time limit with this (set before the console loads) instead of waiting 30 s. */
    __loyaltyRequestTimeoutMs?: number;
  }
}

function requestTimeoutMs(): number {
  const override = typeof window === 'undefined' ? undefined : window.__loyaltyRequestTimeoutMs;
  return typeof override === 'number' && override > 0 ? override : REQUEST_TIMEOUT_MS;
}

/** The call's own limit (`timeoutMs`), else none for a file upload and the console's limit for any other. */
function timeoutOf(options: RequestOptions, raw: boolean): number | null {
  if (options.timeoutMs !== undefined) return options.timeoutMs;
  return raw ? null : requestTimeoutMs();
}

/**
 * What a failed response said. `explained`: the message is the server's own (its JSON error body); a proxy's or
 * load balancer's page in front of it (HTML, "Bad Gateway") leaves only the status line, which is not shown.
 */
export interface ReadErrorBody extends ApiErrorBody {
  explained?: boolean;
}

/** Every failed call: `status` 0 means the server was not reached. */
export class ApiError extends Error {
  readonly status: number;
  readonly code?: string;
  readonly details?: FieldError[];
  readonly requestId?: string;
  readonly silent: boolean;
  readonly explained: boolean;

  constructor(body: ReadErrorBody, silent = false) {
    super(body.message);
    this.name = 'ApiError';
    this.status = body.status;
    this.code = body.code;
    this.details = body.details;
    this.requestId = body.requestId;
    this.silent = silent;
    this.explained = body.explained ?? true;
  }
}

/**
 * A refusal that says the screen showed something out of date: it was changed (409) or removed (404) by
 * someone else meanwhile. The screen reloads it, and a dialog whose action can no longer succeed closes.
 */
export const isStaleDataError = (error: unknown) =>
  error instanceof ApiError && (error.status === 409 || error.status === 404);

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Empty values are left out, so optional filters never reach the server as "undefined". */
export function buildUrl(path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

export async function readErrorBody(response: Response): Promise<ReadErrorBody> {
  const fallback = {
    status: response.status,
    message: response.statusText || `HTTP ${response.status}`,
    explained: false,
  };
  try {
    const body = (await response.json()) as Partial<ApiErrorBody> | null;
    const message = typeof body?.message === 'string' && body.message ? body.message : null;
    return {
      ...fallback,
      message: message ?? fallback.message,
      explained: message !== null,
      code: typeof body?.code === 'string' ? body.code : undefined,
      requestId: body?.requestId,
      details: Array.isArray(body?.details) ? body.details : undefined,
    };
  } catch {
    return fallback;
  }
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const {
    method = 'GET',
    query,
    body,
    auth = true,
    silent = false,
    signal,
    writes = method !== 'GET',
  } = options;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // A Blob (a picked file) goes as it is, with its own content type; anything else is JSON.
  const raw = body instanceof Blob;
  if (body !== undefined && !raw) headers['Content-Type'] = 'application/json';
  const token = auth ? getToken() : null;
  // Another tab signed in as someone else: nothing this tab sends while it shows the first user goes as the
  // second. The tab reloads as the one now signed in (session.ts followOtherUser); the call is dropped unseen.
  if (token && isOtherUsersToken(token)) {
    followOtherUser();
    throw new ApiError({ status: 0, message: SIGNED_IN_ELSEWHERE_MESSAGE, code: 'SESSION_CHANGED' }, true);
  }
  if (token) headers.Authorization = `Bearer ${token}`;

  // The caller's signal (a query cancelled) and the time limit both end the call. A file upload (an import of
  // up to 50 MB) takes what its size and the link need, so it has no limit of ours, nor has a call that says so.
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  if (signal?.aborted) abort();
  else signal?.addEventListener('abort', abort, { once: true });
  let timedOut = false;
  const limit = timeoutOf(options, raw);
  const timer =
    limit === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, limit);
  const failed = (error: unknown): never => {
    if (timedOut) {
      const message = writes ? WRITE_TIMEOUT_MESSAGE : READ_TIMEOUT_MESSAGE;
      throw new ApiError({ status: 0, message, code: TIMEOUT_CODE }, silent);
    }
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, message: NETWORK_ERROR_MESSAGE, code: 'NETWORK_ERROR' }, silent);
  };

  try {
    let response: Response;
    try {
      response = await fetch(buildUrl(path, query), {
        method,
        headers,
        body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
        signal: controller.signal,
      });
    } catch (error) {
      return failed(error);
    }
    noteServerDate(response.headers.get('Date'));

    if (!response.ok) {
      const body = await readErrorBody(response);
      // A 401 on an authenticated call means the session is gone (the login call's 401 is a wrong password),
      // unless a sign-in in another tab replaced the token it was sent with: then it is said nowhere.
      const ended = response.status === 401 && auth ? endSessionOf(token) : null;
      throw new ApiError(body, silent || ended === false);
    }
    if (response.status === 204) return undefined as T;
    let text: string;
    try {
      // The answer's body can stall after its headers: the time limit covers it too.
      text = await response.text();
    } catch (error) {
      return failed(error);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
}

type BodyOptions = Omit<RequestOptions, 'method' | 'body'>;

export const apiClient = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'PATCH', body }),
  delete: <T = void>(path: string, options?: BodyOptions) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
