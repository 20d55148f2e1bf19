import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { findActivePosByHash, type PosIdentity, touchPosKey } from '../pos-keys/pos-keys.repository';

declare module 'fastify' {
  interface FastifyRequest {
    /** The till calling the POS API, set from its X-API-Key. */
    pos?: PosIdentity;
  }
}

/**
 * onRequest: an active POS key in `X-API-Key`, else 401 UNAUTHORIZED (POS-API.md "Authentication"). Looked up
 * on every call, so a deactivation refuses every call that arrives after it, on every server. A call let in
 * before it finishes (a write waiting for its card's lock may commit after the deactivation's answer): the
 * key is checked when the call arrives, not again inside its transaction, which would put a read (and a share
 * lock the deactivation waits for) into every POS write (found by review; left as is). A cache of found keys was measured
 * (BENCHMARKS.md, 2026-11-28) and bought nothing a run could tell from noise, while keeping it exact across
 * servers took LISTEN/NOTIFY, which the scale-out path rules out (ARCHITECTURE.md).
 */
export function posAuthentication(app: FastifyInstance, crypto: () => KeyCrypto) {
  return async (request: FastifyRequest) => {
    const header = request.headers['x-api-key'];
    const key = typeof header === 'string' ? header.trim() : '';
    if (!key) throw new AppError('UNAUTHORIZED', 'Missing X-API-Key header');
    const pos = await findActivePosByHash(app.db, crypto().hash(key));
    if (!pos) throw new AppError('UNAUTHORIZED', 'Invalid or inactive API key');
    request.pos = pos;
  };
}

/**
 * onSend: a successful call stamps the key's lastUsedAt, at most every few seconds per key (the
 * authentication query says whether it is due), so a busy till does not make its key row a hot row.
 */
export function touchLastUsed(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.pos?.stale || reply.statusCode >= 400) return;
    request.pos.stale = false;
    try {
      await touchPosKey(app.db, request.pos.id);
    } catch (error) {
      request.log.warn({ err: error }, 'could not update lastUsedAt');
    }
  };
}
