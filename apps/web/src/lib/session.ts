import { forgetAllKeys } from './idempotency-key';
import { readTokenPayload } from './token-claims';

/** Local storage keys of the session (spec section 9). */
export const TOKEN_KEY = 'token';
export const EXPIRY_KEY = 'tokenExpiry';
/** The POS API key stored for the POS API screen's calls (lib/pos-api-key.ts). */
export const POS_API_KEY_KEY = 'posApiKey';
/** Where Swagger UI keeps what was entered under Authorize (its persistAuthorization), a POS key among it. */
const SWAGGER_AUTH_KEY = 'authorized';

type ExpiryHandler = () => void;
let expiryHandler: ExpiryHandler | null = null;

/**
 * The user this tab's signed-in screens were drawn for (set by app/session-guard.tsx RequireAuth, cleared
 * with the session). The token is shared by every tab of the browser: after another tab signs in as someone
 * else, this tab must neither go on showing the first user nor act, unseen, as the second.
 */
let shownUser: string | null = null;

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

/**
 * Stores a new session (the login form). A different token still stored (another tab signed in meanwhile, or
 * this form's answer came after it) is ended on the server first: overwritten here, it would never be revoked
 * and would go on answering until it expired. What the last session left (a POS key, kept Idempotency-Keys)
 * goes too. The expiry is written before the token: another tab reading between the two writes sees the old
 * token with the new expiry (still valid), never the new token with an old, maybe past, expiry (signed out).
 */
export function storeSession(token: string, expiresInSeconds: number, now = Date.now()): void {
  // This tab signs in: its screens are drawn for the new user from here on.
  shownUser = null;
  const previous = getToken();
  if (previous && previous !== token) {
    revoke(previous);
    clearLeftovers();
  }
  localStorage.setItem(EXPIRY_KEY, String(now + expiresInSeconds * 1000));
  localStorage.setItem(TOKEN_KEY, token);
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
  shownUser = null;
  clearLeftovers();
  try {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(EXPIRY_KEY);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/** What a session leaves besides its token: the kept Idempotency-Keys and the stored POS keys. */
function clearLeftovers(): void {
  forgetAllKeys();
  try {
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
  if (token) revoke(token);
  clearSession();
}

function revoke(token: string): void {
  fetch('/auth/api/v1/logout', {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => {
    // Signed out locally all the same; the token ends when it expires.
  });
}

/** Whose a token is: its user's id (`sub`), else its username; null for no token or an unreadable one. */
function userOf(token: string | null): string | null {
  const claims = readTokenPayload(token);
  const user = claims?.sub ?? claims?.username;
  return typeof user === 'string' || typeof user === 'number' ? String(user) : null;
}

/** Notes that this tab's screens show the stored token's user, unless they already show someone. */
export function showStoredUser(): void {
  shownUser ??= userOf(getToken());
}

/** True when `token` (by default the stored one) is another user's than the one this tab shows. */
export function isOtherUsersToken(token: string | null = getToken()): boolean {
  const user = userOf(token);
  return shownUser !== null && user !== null && user !== shownUser;
}

/** sessionStorage: the user a tab reloaded for, so it can say why it changed (`takeFollowedUser`). */
const FOLLOWED_KEY = 'session-followed';
let following = false;

/** True once this tab has started to follow another user: it reloads, and must not be kept from it. */
export function isFollowingOtherUser(): boolean {
  return following;
}

/**
 * Another tab signed in as someone else: this tab reloads, on the same screen, as that user. Nothing of the
 * first user's (cached answers, kept Idempotency-Keys of their requests) stays behind.
 */
export function followOtherUser(): void {
  if (following) return;
  following = true;
  forgetAllKeys();
  try {
    const username = readTokenPayload(getToken())?.username;
    if (typeof username === 'string') sessionStorage.setItem(FOLLOWED_KEY, username);
  } catch {
    // The reload says nothing then; the sidebar still shows who is signed in.
  }
  window.location.reload();
}

/** The user this tab reloaded for (once), or null. */
export function takeFollowedUser(): string | null {
  try {
    const username = sessionStorage.getItem(FOLLOWED_KEY);
    sessionStorage.removeItem(FOLLOWED_KEY);
    return username;
  } catch {
    return null;
  }
}

/** A storage event about the session (a key of it, or the whole storage cleared). */
export function isSessionChange(event: StorageEvent): boolean {
  return event.key === TOKEN_KEY || event.key === EXPIRY_KEY || event.key === null;
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
 * A 401 for `token`: the session is gone, unless `token` is no longer the stored one. A sign-in in another tab
 * replaced and revoked it (`storeSession`), and ending the session then would sign the new one out in every
 * tab. Returns whether the session was ended.
 */
export function endSessionOf(token: string | null): boolean {
  if (token !== getToken()) return false;
  endSession();
  return true;
}
