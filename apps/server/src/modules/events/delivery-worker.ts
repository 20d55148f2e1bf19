import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/connection';
import { runLog } from '../../lib/outage-log';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { outcomeOf } from './attempt-outcome';
import {
  type ClaimedDelivery,
  claimDeliveries,
  type FinishedAttempt,
  recordAttempts,
} from './deliveries.repository';
import { eventBody, pruneEvents } from './events.repository';
import {
  type AttemptReport,
  attemptResult,
  claimStreamBatch,
  deliverStream,
  type StreamOptions,
} from './stream-batch';
import type { ClaimedStream } from './streams.repository';
import { sendWebhook, webhookMessageId } from './webhook-sender';
import { disableGoneEndpoint } from './webhooks.service';

export interface DeliveryOptions extends StreamOptions {
  /** Attempts one server runs at once, and at most this many per endpoint (across servers). */
  maxInFlight?: number;
  perEndpoint?: number;
}

const MAX_IN_FLIGHT = 16;
const PER_ENDPOINT = 4;

/**
 * A claim holds a delivery (or a stream) for twice the time limit and a margin: long past any attempt that
 * is still running, and short enough that work whose server died is taken by another soon.
 */
export const leaseMs = (timeoutMs: number) => 2 * timeoutMs + 5000;

/**
 * One attempt of a claimed delivery row: its outcome, to be recorded against the claim. A 410 Gone disables
 * the endpoint at once (its delivery is recorded `failed` with the claim).
 */
export async function attemptDelivery(
  db: Db,
  crypto: KeyCrypto,
  options: DeliveryOptions,
  claim: ClaimedDelivery,
): Promise<FinishedAttempt> {
  const body = eventBody({
    id: claim.event_id,
    type: claim.event_type,
    data: claim.event_data,
    created_at: claim.event_created_at,
  });
  const secret = crypto.decrypt(claim.secret_cipher, claim.endpoint_id);
  const id = webhookMessageId(claim.message_id);
  const result = await sendWebhook(claim.url, { id, body, secret }, options);
  const outcome = outcomeOf(result, claim.attempts, options.retrySchedule);
  options.onAttempt?.({
    result: attemptResult(outcome),
    endpointId: claim.endpoint_id,
    eventId: claim.event_id,
    attempts: claim.attempts,
  });
  if (outcome.gone) await disableGoneEndpoint(db, claim.endpoint_id, claim.url);
  return { id: claim.id, attempts: claim.attempts, outcome };
}

const limits = (options: DeliveryOptions) => ({
  maxInFlight: options.maxInFlight ?? MAX_IN_FLIGHT,
  perEndpoint: options.perEndpoint ?? PER_ENDPOINT,
  leaseMs: leaseMs(options.timeoutMs),
});

/**
 * Claims what is due (delivery rows, then streams with new events), runs those attempts to the end and
 * records them; returns the attempts made (tests drive delivery with this).
 */
export async function deliverDue(db: Db, crypto: KeyCrypto, options: DeliveryOptions): Promise<number> {
  const { maxInFlight, perEndpoint, leaseMs } = limits(options);
  const claimed = await claimDeliveries(db, { limit: maxInFlight, perEndpoint, leaseMs });
  const rows = Promise.all(claimed.map((claim) => attemptDelivery(db, crypto, options, claim)));
  const free = maxInFlight - claimed.length;
  const { token, streams } = await claimStreamBatch(db, {
    limit: Math.floor(free / perEndpoint),
    perEndpoint,
    leaseMs,
  });
  const sent = await Promise.all(streams.map((stream) => deliverStream(db, crypto, options, stream, token)));
  await recordAttempts(db, await rows);
  return claimed.length + sent.reduce((sum, batch) => sum + batch.attempts, 0);
}

/**
 * Passes each attempt on, and logs a delivery that failed for good (its retries used up, or a 410 Gone) once,
 * at warn: a receiver that is down was otherwise invisible until someone opened its deliveries. Endpoint and
 * event ids only, never the URL (it may carry a token). Failed attempts that will be retried are not logged
 * one by one (the `loyalty_webhook_attempts_total` counter has them).
 */
function reportingAttempts(
  log: FastifyBaseLogger,
  next?: (report: AttemptReport) => void,
): (report: AttemptReport) => void {
  return (report) => {
    next?.(report);
    if (report.result === 'failed_final' || report.result === 'gone') {
      log.warn(
        {
          webhook: report.endpointId,
          event: String(report.eventId),
          attempts: report.attempts,
          result: report.result,
        },
        report.result === 'gone'
          ? 'webhook delivery failed: the receiver answered 410 Gone and the endpoint was disabled'
          : 'webhook delivery failed: no retries left',
      );
    }
  };
}

export interface DeliveryWorker {
  stop(): Promise<void>;
}

const PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 1000;

/**
 * Claims due delivery rows and streams up to the free slots and starts them without waiting, so a slow
 * receiver never holds back the others: every `intervalMs`, and again as soon as an attempt or a stream's
 * batch ends (a backlog drains at the receivers' pace, not one batch per interval); each claim also
 * records the rows' attempts that ended since the last one. Prunes old events about once an hour, a batch a
 * tick until none is due. Every server runs one: they share the work through the claims.
 */
export function startDeliveryWorker(
  db: Db,
  crypto: KeyCrypto,
  options: DeliveryOptions & { intervalMs: number; retentionDays: number },
  log: FastifyBaseLogger,
): DeliveryWorker {
  const { maxInFlight, perEndpoint, leaseMs } = limits(options);
  options = { ...options, onAttempt: reportingAttempts(log, options.onAttempt) };
  const inFlight = new Set<Promise<void>>();
  let slotsInUse = 0;
  let claiming: Promise<void> | null = null;
  const runs = runLog(log, 'webhook delivery');
  let stopped = false;
  let lastPrune = 0;

  // Attempts that ended and are not recorded yet: the next claim records them in its own statement.
  const finished: FinishedAttempt[] = [];

  /** Work holding `slots` until it ends; then claims again at once if it says there is more to do. */
  const track = (work: Promise<boolean>, slots: number) => {
    slotsInUse += slots;
    const tracked = work.then((more) => {
      slotsInUse -= slots;
      inFlight.delete(tracked);
      if (more) claimNow();
    });
    inFlight.add(tracked);
  };

  // An ended attempt is recorded by the next claim, at once: its slot is free and rows may be due.
  const runRow = (claim: ClaimedDelivery) =>
    track(
      attemptDelivery(db, crypto, options, claim).then(
        (ended) => {
          finished.push(ended);
          return true;
        },
        (error) => {
          log.error({ err: error, delivery: claim.id }, 'webhook attempt failed to run');
          return true;
        },
      ),
      1,
    );

  // A stream's batch claims again at once only while the stream has a backlog; otherwise the next tick
  // does, so under steady traffic a batch carries an interval's events, not one or two: the claim, read
  // and record statements per event are what one endpoint costs the POS writes' database. A batch that
  // fails to record is sent again by whoever takes the stream when its lease ends.
  const runStream = (stream: ClaimedStream, token: string) =>
    track(
      deliverStream(db, crypto, options, stream, token).then(
        (batch) => batch.more,
        (error) => {
          log.error({ err: error, webhook: stream.id }, 'webhook stream batch failed');
          return false;
        },
      ),
      stream.stream_slots,
    );

  const tick = async () => {
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      const pruned = await pruneEvents(db, options.retentionDays, PRUNE_BATCH);
      if (pruned > 0) log.info({ pruned }, 'old events pruned');
      // A full batch: more are due, so the next tick prunes again. An hour's batch alone kept 24,000
      // events a day, a tenth of what 10M operations a month write; batches keep each tick short.
      if (pruned === PRUNE_BATCH) lastPrune = 0;
    }
    const free = maxInFlight - slotsInUse;
    if (free > 0 || finished.length > 0) {
      const ended = finished.splice(0);
      let claimed: ClaimedDelivery[];
      try {
        claimed = await claimDeliveries(db, {
          limit: Math.max(free, 0),
          perEndpoint,
          leaseMs,
          finished: ended,
        });
      } catch (error) {
        // Not recorded: kept for the next claim (if this server dies first, the lease makes them due again).
        finished.unshift(...ended);
        throw error;
      }
      for (const claim of claimed) runRow(claim);
    }
    const streamsFree = Math.floor((maxInFlight - slotsInUse) / perEndpoint);
    if (streamsFree > 0) {
      const { token, streams } = await claimStreamBatch(db, { limit: streamsFree, perEndpoint, leaseMs });
      for (const stream of streams) runStream(stream, token);
    }
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
      .then(
        () => runs.succeeded(),
        (error) => runs.failed(error, 'webhook delivery run failed'),
      )
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
