/**
 * A fresh Idempotency-Key: 128 random bits as hex, from `crypto.getRandomValues`, which (unlike
 * `crypto.randomUUID`) browsers also offer on a console served over plain http inside a retailer's network.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

import { isApiError } from './api-client';
import { sha256Hex } from './sha256';

const PREFIX = 'idempotency-key:';
/**
 * How long a kept key stands for its request: 10 minutes. Long enough to see that an answer was lost (a
 * timeout after 30 s, a reload, a look at the list) and press again; far shorter than the time after which
 * the same request is a new one (a card issued again after the first one was blocked, an endpoint added again
 * after it was deleted): the server would replay the old answer to it, and nothing would be made.
 */
export const KEY_LIFETIME_MS = 10 * 60_000;

interface KeptKey {
  key: string;
  /** When the key was made (ms since the epoch). */
  made: number;
}

/** Where the keys are kept when sessionStorage cannot be used (storage disabled, private mode quotas). */
const memory = new Map<string, KeptKey>();

/**
 * The entry's name: a SHA-256 of the request, never the request itself, which holds what was typed (a
 * client ID, a credit's reason, a webhook URL with a token in its query) and would lie readable in the tab's
 * storage.
 */
const entryName = (request: string) => PREFIX + sha256Hex(request);

function readKept(raw: string | null): KeptKey | null {
  if (!raw) return null;
  try {
    const kept = JSON.parse(raw) as Partial<KeptKey> | null;
    return typeof kept?.key === 'string' && typeof kept.made === 'number'
      ? { key: kept.key, made: kept.made }
      : null;
  } catch {
    return null;
  }
}

const isLive = (kept: KeptKey | null, now: number): kept is KeptKey =>
  kept !== null && now - kept.made >= 0 && now - kept.made < KEY_LIFETIME_MS;

/** The names of this tab's kept keys (sessionStorage has no listing by prefix). */
function storedNames(): string[] {
  const names: string[] = [];
  for (let i = 0; i < sessionStorage.length; i++) {
    const name = sessionStorage.key(i);
    if (name?.startsWith(PREFIX)) names.push(name);
  }
  return names;
}

/**
 * The key of one request, named by `request` (what it asks, e.g. `add-points:[account, points, reason]`): the
 * same request entered again within `KEY_LIFETIME_MS`, even after the dialog was closed or the page reloaded
 * in this tab, gets the same key, so a request whose answer never came is replayed, not made twice. Later, it
 * is a new request with a new key. Kept in sessionStorage; expired keys are dropped here.
 */
export function keyFor(request: string, now = Date.now()): string {
  const name = entryName(request);
  try {
    for (const other of storedNames()) {
      if (other !== name && !isLive(readKept(sessionStorage.getItem(other)), now))
        sessionStorage.removeItem(other);
    }
    const stored = readKept(sessionStorage.getItem(name));
    if (isLive(stored, now)) return stored.key;
    const kept = { key: newIdempotencyKey(), made: now };
    sessionStorage.setItem(name, JSON.stringify(kept));
    return kept.key;
  } catch {
    const stored = memory.get(name) ?? null;
    if (isLive(stored, now)) return stored.key;
    const kept = { key: newIdempotencyKey(), made: now };
    memory.set(name, kept);
    return kept.key;
  }
}

/**
 * Forgets every kept key (lib/session.ts, at Logout and at the session's end): the next person signed in at
 * this tab makes their own requests, and nothing of the last one's is left behind.
 */
export function forgetAllKeys(): void {
  memory.clear();
  try {
    for (const name of storedNames()) sessionStorage.removeItem(name);
  } catch {}
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
  const name = entryName(request);
  memory.delete(name);
  try {
    sessionStorage.removeItem(name);
  } catch {}
}
