import { manualAccrualHeaders } from '@loyalty/contracts';
import { z } from 'zod';
import { isForeignKeyViolation } from '../../db/sql-errors';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { canonicalJson, requestHash } from '../../lib/request-hash';
import { claimKey, storeAnswer } from './admin-idempotency.repository';

/*
 * An admin create (a POST that makes a row: an account, a card, a ruleset, a POS key, a webhook endpoint) under
 * the signed-in user's Idempotency-Key: the console sends the same key for the same request entered again
 * (web lib/idempotency-key.ts), so pressing submit again after an answer that never arrived (a connection
 * reset, a proxy's timeout, a 503 at COMMIT) gets the first answer again instead of a second row. The key's rules are manual accrual's (`admin-idempotency.repository.ts`, table
 * idempotency_keys): claimed in the create's transaction, its answer committed with the row.
 */

/** The optional header of an admin create, for its route's schema (the API document says what it does). */
export const createIdempotencyHeaders = z.looseObject({
  'idempotency-key': manualAccrualHeaders.shape['idempotency-key'].describe(
    'Makes a retry safe: the same key with the same request gets the first answer again (201 and its body, ' +
      'header Idempotent-Replayed: true) and nothing is created twice; the same key with another request, ' +
      'or already used on another route, is 409 IDEMPOTENCY_KEY_REUSED. A refusal is not kept: the request ' +
      'sent again is decided again. Keys are per user (two users never share one) and are kept.',
  ),
});

export interface CreateUnderKey {
  /** The Idempotency-Key header; absent: the create runs as it does without one. */
  key: string | undefined;
  userId: string;
  /**
   * What is asked ('issue-card', 'create-ruleset'…): part of the request hash, so a key used on one route
   * (an accrual's) meets any other route's request as another request (409), never replays as its answer.
   */
  route: string;
  /**
   * The request as the hash sees it: the parsed body and the path's ids (lower case). A secret in it is
   * passed as its keyed hash, never as itself: request_hash is a plain SHA-256 a dump could test guesses on.
   */
  request: unknown;
}

/**
 * How an answer that carries a secret shown once (a webhook's signing secret) is kept: `seal` what is
 * stored (the secret encrypted as the product stores it), `open` it for the replay.
 */
export interface SealedAnswer<T> {
  seal: (answer: T) => unknown;
  open: (stored: unknown) => T;
}

export interface Created<T> {
  body: T;
  /** The answer of an earlier request with this key: the route sends `Idempotent-Replayed: true`. */
  replayed: boolean;
}

/**
 * Runs `create` inside the caller's transaction `trx` under the key: the first request with it claims the key,
 * creates and stores its answer, committed together; the same request again (or a concurrent one, which waits
 * on the first's claim) gets that answer back and creates nothing. Another request under the key is 409
 * IDEMPOTENCY_KEY_REUSED. A refusal (an AppError from `create`) is not stored, unlike manual accrual's: it
 * wrote nothing and rolls the claim back with the transaction (a unique index's refusal has aborted it in any
 * case), so the request sent again is decided again and still makes at most one row.
 */
export async function createUnderKey<T>(
  trx: Tx,
  w: CreateUnderKey,
  create: () => Promise<T>,
  sealed?: SealedAnswer<T>,
): Promise<Created<T>> {
  if (w.key === undefined) return { body: await create(), replayed: false };
  const scope = { userId: w.userId };
  const hash = requestHash(w.route, canonicalJson(w.request));
  const earlier = await claimKey(trx, { scope, key: w.key, hash }).catch((error: unknown) => {
    // The key is the user's: deleted since the request was let in, their session has ended.
    if (isForeignKeyViolation(error, 'idempotency_keys_user_id_fkey')) throw new AppError('UNAUTHORIZED');
    throw error;
  });
  if (earlier) {
    if (earlier.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    const stored = earlier.response;
    return { body: sealed ? sealed.open(stored) : (stored as T), replayed: true };
  }
  const body = await create();
  await storeAnswer(trx, { scope, key: w.key, status: 201, body: sealed ? sealed.seal(body) : body });
  return { body, replayed: false };
}
