import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import {
  type AttemptOutcome,
  type ClaimedDelivery,
  claimDeliveries,
  type FinishedAttempt,
  recordAttempts,
} from './deliveries.repository';
import { pruneEvents, toEvent } from './events.repository';
import { isSuccess, sendWebhook } from './webhook-sender';

export interface DeliveryOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Seconds before retry n (1-based: after the n-th failed attempt); past its end the delivery fails. */
  retrySchedule: number[];
  /** Attempts one server runs at once, and at most this many per endpoint (across servers). */
  maxInFlight?: number;
  perEndpoint?: number;
}

const MAX_IN_FLIGHT = 16;
const PER_ENDPOINT = 4;

/**
 * A claim holds a delivery for twice the time limit and a margin: long past any attempt that is still
 * running, and short enough that a delivery whose server died is taken by another soon.
 */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 5000;

/** Seconds until the next attempt after `attempts` failed ones, or null when the schedule is used up. */
export function retryDelay(schedule: number[], attempts: number): number | null {
  return attempts <= schedule.length ? schedule[attempts - 1]! : null;
}

/** One attempt of a claimed delivery: its outcome, to be recorded against the claim. */
export async function attemptDelivery(
  crypto: KeyCrypto,
  options: DeliveryOptions,
  claim: ClaimedDelivery,
): Promise<FinishedAttempt> {
  const event = toEvent({
    id: claim.event_id,
    type: claim.event_type,
    data: claim.event_data,
    created_at: claim.event_created_at,
  });
  const secret = crypto.decrypt(claim.secret_cipher, claim.endpoint_id);
  const result = await sendWebhook(claim.url, { id: event.id, body: JSON.stringify(event), secret }, options);
  const succeeded = isSuccess(result);
  const outcome: AttemptOutcome = {
    succeeded,
    responseStatus: result.status,
    error: succeeded ? null : (result.error ?? `HTTP ${result.status}`),
    retryInSeconds: succeeded ? null : retryDelay(options.retrySchedule, claim.attempts),
  };
  return { id: claim.id, attempts: claim.attempts, outcome };
}

/** Claims what is due, runs those attempts to the end and records them (tests drive delivery with this). */
export async function deliverDue(db: Db, crypto: KeyCrypto, options: DeliveryOptions): Promise<number> {
  const claimed = await claimDeliveries(db, {
    limit: options.maxInFlight ?? MAX_IN_FLIGHT,
    perEndpoint: options.perEndpoint ?? PER_ENDPOINT,
    leaseMs: leaseMs(options.timeoutMs),
  });
  await recordAttempts(
    db,
    await Promise.all(claimed.map((claim) => attemptDelivery(crypto, options, claim))),
  );
  return claimed.length;
}

export interface DeliveryWorker {
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 3600_000;

/**
 * Claims due deliveries up to the free slots and starts their attempts without waiting for them, so a slow
 * receiver never holds back the others: every `intervalMs`, and again as soon as an attempt ends (a backlog
 * drains at the receivers' pace, not one batch per interval); each claim also records the attempts that
 * ended since the last one. Prunes old events about once an hour. Every server runs one: they share the
 * work through the claims.
 */
export function startDeliveryWorker(
  db: Db,
  crypto: KeyCrypto,
  options: DeliveryOptions & { intervalMs: number; retentionDays: number },
  log: FastifyBaseLogger,
): DeliveryWorker {
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = options.maxInFlight ?? MAX_IN_FLIGHT;
  let claiming: Promise<void> | null = null;
  let stopped = false;
  let lastPrune = 0;

  // Attempts that ended and are not recorded yet: the next claim records them in its own statement.
  const finished: FinishedAttempt[] = [];

  const run = (claim: ClaimedDelivery) => {
    const attempt = attemptDelivery(crypto, options, claim)
      .then((ended) => {
        finished.push(ended);
      })
      .catch((error) => log.error({ err: error, delivery: claim.id }, 'webhook attempt failed to run'))
      .finally(() => {
        inFlight.delete(attempt);
        claimNow();
      });
    inFlight.add(attempt);
  };

  const tick = async () => {
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      const pruned = await pruneEvents(db, options.retentionDays);
      if (pruned > 0) log.info({ pruned }, 'old events pruned');
    }
    const free = maxInFlight - inFlight.size;
    if (free <= 0 && finished.length === 0) return;
    const ended = finished.splice(0);
    let claimed: ClaimedDelivery[];
    try {
      claimed = await claimDeliveries(db, {
        limit: Math.max(free, 0),
        perEndpoint: options.perEndpoint ?? PER_ENDPOINT,
        leaseMs: leaseMs(options.timeoutMs),
        finished: ended,
      });
    } catch (error) {
      // Not recorded: kept for the next claim (if this server dies first, the lease makes them due again).
      finished.unshift(...ended);
      throw error;
    }
    for (const claim of claimed) run(claim);
  };

  // Never two claims at once in this process: one asked for meanwhile runs when the current one ends.
  let again = false;
  function claimNow() {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    again = false;
    claiming = tick()
      .catch((error) => log.error({ err: error }, 'webhook delivery run failed'))
      .finally(() => {
        claiming = null;
        if (again) claimNow();
      });
  }

  const timer = setInterval(claimNow, options.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await claiming;
      await Promise.all(inFlight);
      await recordAttempts(db, finished.splice(0)).catch((error) =>
        log.error({ err: error }, 'webhook attempts not recorded at stop (due again when their lease ends)'),
      );
    },
  };
}
