import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { type ClaimedDelivery, claimDeliveries, recordAttempt } from './deliveries.repository';
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

/** One attempt of a claimed delivery, its outcome recorded (only if the claim is still this attempt's). */
export async function attemptDelivery(
  db: Db,
  crypto: KeyCrypto,
  options: DeliveryOptions,
  claim: ClaimedDelivery,
) {
  const event = toEvent({
    id: claim.event_id,
    type: claim.event_type,
    data: claim.event_data,
    created_at: claim.event_created_at,
  });
  const secret = crypto.decrypt(claim.secret_cipher, claim.endpoint_id);
  const result = await sendWebhook(claim.url, { id: event.id, body: JSON.stringify(event), secret }, options);
  const succeeded = isSuccess(result);
  await recordAttempt(db, claim, {
    succeeded,
    responseStatus: result.status,
    error: succeeded ? null : (result.error ?? `HTTP ${result.status}`),
    retryInSeconds: succeeded ? null : retryDelay(options.retrySchedule, claim.attempts),
  });
}

/** Claims what is due and runs those attempts to the end (tests drive delivery with this). */
export async function deliverDue(db: Db, crypto: KeyCrypto, options: DeliveryOptions): Promise<number> {
  const claimed = await claimDeliveries(db, {
    limit: options.maxInFlight ?? MAX_IN_FLIGHT,
    perEndpoint: options.perEndpoint ?? PER_ENDPOINT,
    leaseMs: leaseMs(options.timeoutMs),
  });
  await Promise.all(claimed.map((claim) => attemptDelivery(db, crypto, options, claim)));
  return claimed.length;
}

export interface DeliveryWorker {
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 3600_000;

/**
 * Claims due deliveries up to the free slots and starts their attempts without waiting for them, so a slow
 * receiver never holds back the others: every `intervalMs`, and again as soon as an attempt ends (a backlog
 * drains at the receivers' pace, not one batch per interval). Prunes old events about once an hour. Every
 * server runs one: they share the work through the claims.
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

  const run = (claim: ClaimedDelivery) => {
    const attempt = attemptDelivery(db, crypto, options, claim)
      .catch((error) => log.error({ err: error, delivery: claim.id }, 'webhook attempt not recorded'))
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
    if (free <= 0) return;
    const claimed = await claimDeliveries(db, {
      limit: free,
      perEndpoint: options.perEndpoint ?? PER_ENDPOINT,
      leaseMs: leaseMs(options.timeoutMs),
    });
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
    },
  };
}
