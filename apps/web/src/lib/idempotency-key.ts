/**
 * A fresh Idempotency-Key: 128 random bits as hex, from `crypto.getRandomValues`, which (unlike
 * `crypto.randomUUID`) browsers also offer on a console served over plain http inside a retailer's network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

import { isApiError } from './api-client';

const PREFIX = 'idempotency-key:';
/** Where the keys are kept when sessionStorage cannot be used (storage disabled, private mode quotas). */
const memory = new Map<string, string>();

/**
 * The key of one request, named by `request` (what it asks, e.g. `add-points:[account, points, reason]`): the
 * same request entered again, even after the dialog was closed or the page reloaded in this tab, gets the
 * same key, so a request whose answer never came is replayed, not made twice. Kept in sessionStorage.
 */
export function keyFor(request: string): string {
  const name = PREFIX + request;
  try {
    const stored = sessionStorage.getItem(name);
    if (stored) return stored;
    const key = newIdempotencyKey();
    sessionStorage.setItem(name, key);
    return key;
  } catch {
    const key = memory.get(name) ?? newIdempotencyKey();
    memory.set(name, key);
    return key;
  }
}

/**
 * After a failure: the server's own refusal (an explained 4xx) says nothing was made, so the same request
 * entered later is a new one and its key is forgotten. No answer (a timeout, a lost connection, a 5xx) keeps
 * the key: the write may have been done, and the request entered again replays it instead of doing it twice.
 */
export function forgetKeyIfRefused(request: string, error: unknown): void {
  if (isApiError(error) && error.explained && error.status >= 400 && error.status < 500) forgetKey(request);
}

/** Forgets the request's key: it was answered, so the same request entered again is a new one. */
export function forgetKey(request: string): void {
  memory.delete(PREFIX + request);
  try {
    sessionStorage.removeItem(PREFIX + request);
  } catch {}
}
