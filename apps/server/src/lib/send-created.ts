import type { FastifyReply } from 'fastify';
import type { Created } from '../modules/ledger/admin-idempotency';

/**
 * A create's answer: 201 with what was made, and `Idempotent-Replayed: true` when its Idempotency-Key had
 * already been answered, so the same body now is the first request's (`createUnderKey`).
 */
export function sendCreated<T>(reply: FastifyReply, created: Created<T>) {
  if (created.replayed) reply.header('idempotent-replayed', 'true');
  return reply.code(201).send(created.body);
}
