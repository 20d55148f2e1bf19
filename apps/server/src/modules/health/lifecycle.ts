import type { FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error';

/**
 * Where the server is in its shutdown. `draining`: `/readyz` already answers 503 so a balancer stops sending
 * new connections, while every request is still served (start.ts, SHUTDOWN_DRAIN_MS). `closing`: `app.close()`
 * has begun; the port no longer accepts and a request still arriving on a kept-alive connection is refused.
 */
export interface Lifecycle {
  draining: boolean;
  closing: boolean;
  /**
   * Work a closing server lets finish before its database closes: an import's clean-up of its spooled rows
   * runs after its upload's connection was closed, and against a closed pool it failed silently (the rows
   * stayed until a later import's hourly sweep). Answers `work`.
   */
  keep<T>(work: Promise<T>): Promise<T>;
  /** Settles once every kept work has (start.ts waits for it, bounded, before closing the database). */
  settled(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

/**
 * On the root app, before the routes. Fastify's own answer to a request that arrives while it closes
 * (`return503OnClosing`, turned off in app.ts) was `{"error":"Service Unavailable",…}`: a till that reads
 * `code` did not see the `SERVICE_UNAVAILABLE` it may retry on another server (POS-API.md). This one goes
 * through the error handler like every other error, and ends the connection so the till reconnects.
 */
export function registerLifecycle(app: FastifyInstance) {
  const kept = new Set<Promise<unknown>>();
  const lifecycle: Lifecycle = {
    draining: false,
    closing: false,
    keep(work) {
      kept.add(work);
      const forget = () => kept.delete(work);
      work.then(forget, forget);
      return work;
    },
    async settled() {
      await Promise.allSettled([...kept]);
    },
  };
  app.decorate('lifecycle', lifecycle);
  app.addHook('preClose', (done) => {
    lifecycle.closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!lifecycle.closing) return;
    reply.header('connection', 'close');
    reply.header('retry-after', '1');
    throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry on another server');
  });
}
