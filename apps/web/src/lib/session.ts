import { forgetAllKeys } from './idempotency-key';

/** Local storage keys of the session (spec section 9). */
export const TOKEN_KEY = 'token';
export const EXPIRY_KEY = 'tokenExpiry';
/** The POS API key stored for the POS API screen's calls (lib/pos-api-key.ts). */
export const POS_API_KEY_KEY = 'posApiKey';
/** Where Swagger UI keeps what was entered under Authorize (its persistAuthorization), a POS key among it. */
const SWAGGER_AUTH_KEY = 'authorized';

type ExpiryHandler = () => void;
let expiryHandler: ExpiryHandler | null = null;

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** '', 'null' and 'undefined' are what careless writes leave behind: they are no token. */
export function getToken(): string | null {
  const token = read(TOKEN_KEY);
  if (!token || token === 'null' || token === 'undefined') return null;
  return token;
}

export function getExpiry(): number | null {
  const raw = read(EXPIRY_KEY);
  if (!raw) return null;
  const value = Number(raw);
  return Number.isFinite(value) ? value : null;
}

export function storeSession(token: string, expiresInSeconds: number, now = Date.now()): void {
  localStorage.setItem(TOKEN_KEY, token);
  localStorage.setItem(EXPIRY_KEY, String(now + expiresInSeconds * 1000));
}

/** Valid = a token exists and either no expiry is set or it lies in the future. */
export function isSessionValid(now = Date.now()): boolean {
  if (!getToken()) return false;
  const expiry = getExpiry();
  return expiry === null || expiry > now;
}

/**
 * Signs the browser out: the session, and the till's key stored for the POS API screen and in its Swagger UI.
 * A POS key is a till's credential that only an administrator could reveal; left behind, it would let the next
 * person at this browser (a viewer, or anyone opening the public documentation page) call the POS API as that till.
 * The kept Idempotency-Keys go too (lib/idempotency-key.ts): the next person's request of the same name is theirs.
 */
export function clearSession(): void {
  forgetAllKeys();
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(EXPIRY_KEY);
    localStorage.removeItem(POS_API_KEY_KEY);
    localStorage.removeItem(SWAGGER_AUTH_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/**
 * The Logout button: ends the session on the server, so the token and any copy of it are refused from then on,
 * then signs the browser out (`clearSession`). The server call is best effort and not awaited: a slow or dead
 * server, or an already expired token's 401, must not keep anyone signed in here nor the screen waiting. It is
 * sent directly, not through the API client, whose 401 handling would end the session a second time;
 * `keepalive` lets it finish if the tab is closed right after.
 */
export function signOut(): void {
  const token = getToken();
  if (token) {
    fetch('/auth/api/v1/logout', {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      keepalive: true,
    }).catch(() => {
      // Signed out locally all the same; the token ends when it expires.
    });
  }
  clearSession();
}

/** The app registers a router-aware redirect; without one, expiry falls back to a hard redirect. */
export function setSessionExpiryHandler(handler: ExpiryHandler | null): void {
  expiryHandler = handler;
}

/** Clears the session and sends the user to /login, replacing history. */
export function endSession(): void {
  clearSession();
  if (expiryHandler) expiryHandler();
  else if (window.location.pathname !== '/login') window.location.replace('/login');
}

/**
 * What /login is given to bring the user back after signing in (features/login/login-form.tsx): the screen they were on, with
 * its query (filters, a search, a page), in the router's history state. Never a URL from outside: only this
 * tab's own navigation can put it there, and `returnPath` accepts nothing but a path of this console.
 */
export interface LoginState {
  from: string;
}

export function loginState({
  pathname,
  search,
  hash,
}: {
  pathname: string;
  search: string;
  hash: string;
}): LoginState {
  return { from: `${pathname}${search}${hash}` };
}

/** Where to go after signing in: the path /login was sent from, when it is one of ours, else the dashboard. */
export function returnPath(state: unknown): string {
  const from = (state as Partial<LoginState> | null)?.from;
  // A path of this origin only: '//host' and '/\host' are other sites to a browser; /login would loop.
  if (typeof from !== 'string' || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) {
    return '/';
  }
  if (from === '/login' || from.startsWith('/login?') || from.startsWith('/login#')) return '/';
  return from;
}
