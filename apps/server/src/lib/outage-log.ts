import type { FastifyBaseLogger } from 'fastify';
import { isConnectionError } from '../db/connection-errors';

/** What a periodic job tells its log after each run. */
export interface RunLog {
  /** A run failed: logged with its error, except a database outage after its first tick (below). */
  failed(error: unknown, message: string): void;
  /** A run succeeded: ends an outage, saying so once. */
  succeeded(): void;
}

/**
 * The log of a job that runs every second or so. While the database is away every tick fails the same way,
 * and an error with its stack per tick and job buried everything else in an operator's log (the webhook
 * poller alone wrote one a second). The first failure of an outage is logged as a warning with its error; the
 * rest stay quiet until a run succeeds, which is logged once. Other errors are logged every time.
 */
export function runLog(log: FastifyBaseLogger, job: string): RunLog {
  let down = false;
  return {
    failed(error, message) {
      if (!isConnectionError(error)) {
        log.error({ err: error }, message);
        return;
      }
      if (down) return;
      down = true;
      log.warn({ err: error }, `${job}: the database is unavailable; retrying quietly until it is back`);
    },
    succeeded() {
      if (!down) return;
      down = false;
      log.info(`${job}: the database is available again`);
    },
  };
}
