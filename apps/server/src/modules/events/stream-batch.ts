import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection';
import type { Executor } from '../../db/executor';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { type AttemptOutcome, outcomeOf } from './attempt-outcome';
import { eventBody } from './events.repository';
import {
  type ClaimedStream,
  claimStreams,
  readLeasedStream,
  recordStream,
  type StreamEvent,
  type StreamOutcome,
} from './streams.repository';
import { type SendOptions, sendWebhook, webhookMessageId } from './webhook-sender';
import { disableGoneEndpoint } from './webhooks.service';

/** Events read from a stream at once, and at most this many of them sent in one batch. */
const WINDOW = 256;
const BATCH = 64;

export interface StreamOptions extends SendOptions {
  retrySchedule: number[];
  /** Told each attempt's result as it is decided: the attempts metric, the log of deliveries failed for good. */
  onAttempt?(report: AttemptReport): void;
}

/**
 * What one attempt did to its delivery, in a handful of values (a metric label): delivered; failed and to be
 * retried; failed with the retry schedule used up (the delivery is now `failed`); or answered 410 Gone (the
 * delivery `failed` and the endpoint disabled).
 */
export type AttemptResult = 'succeeded' | 'failed_retrying' | 'failed_final' | 'gone';

export interface AttemptReport {
  result: AttemptResult;
  endpointId: string;
  eventId: number;
  /** Attempts of this delivery so far, this one included. */
  attempts: number;
}

export function attemptResult(outcome: AttemptOutcome): AttemptResult {
  if (outcome.succeeded) return 'succeeded';
  if (outcome.gone) return 'gone';
  return outcome.retryInSeconds === null ? 'failed_final' : 'failed_retrying';
}

/**
 * The batch's events as chains to send one after another: one per subject (an account, or a card with no
 * account: `StreamEvent.subject`) in feed order, and one per event about neither. The chains come in the
 * order of their first event, so the earliest event of the batch is always the first attempt.
 */
function chainsOf(batch: readonly StreamEvent[]): number[][] {
  const chains: number[][] = [];
  const bySubject = new Map<string, number[]>();
  batch.forEach((event, index) => {
    const chain = event.subject === null ? undefined : bySubject.get(event.subject);
    if (chain) chain.push(index);
    else {
      const started = [index];
      chains.push(started);
      if (event.subject !== null) bySubject.set(event.subject, started);
    }
  });
  return chains;
}

/**
 * Sends one leased stream's next batch, then records every outcome and the new position in one statement.
 * It reads from where the stream stands when it reads, not from the claim's position (the endpoint may have
 * been disabled and enabled again since), and sends to the claim's URL.
 *
 * Order: the events of one account (of one card, for those without an account) go one after another in the
 * feed's order, each attempt starting once the one before it has ended, whatever its outcome: a failed one is
 * retried on the schedule as a delivery row, and the account's next events do not wait for it (waiting would
 * hold an account's deliveries for up to the schedule's 21 hours each time the receiver refuses one). Different
 * accounts go side by side, `stream_slots` attempts at a time.
 *
 * No attempt starts once `timeoutMs` has passed since the batch began, so every attempt ends well inside the
 * lease (2 × the time limit + 5 s). The position then stops just before the first event not attempted, so
 * the next batch sends it and what follows it in order (queued as delivery rows instead, they went out side
 * by side); the events attempted after that point have their delivery rows, and a stream never sends again
 * an event that has one (`StreamEvent.delivered`). A 410 Gone stops the batch (no attempt starts after it)
 * and disables the endpoint. Returns the attempts made, and whether the stream had more to read than one
 * batch (a backlog: worth claiming again at once).
 */
export async function deliverStream(
  db: Db,
  crypto: KeyCrypto,
  options: StreamOptions,
  stream: ClaimedStream,
  token: string,
): Promise<{ attempts: number; more: boolean }> {
  const started = Date.now();
  const events = await readLeasedStream(db, { id: stream.id, token }, WINDOW);
  const wanted = events.filter((event) => event.data !== null && !event.delivered);
  const batch = wanted.slice(0, BATCH);
  const secret = batch.length > 0 ? crypto.decrypt(stream.secret_cipher, stream.id) : '';
  const outcomes: (StreamOutcome | undefined)[] = batch.map(() => undefined);
  const chains = chainsOf(batch);
  let nextChain = 0;
  let attempts = 0;
  let gone = false;
  const lane = async () => {
    while (nextChain < chains.length) {
      for (const index of chains[nextChain++]!) {
        if (gone || Date.now() - started >= options.timeoutMs) return;
        const read = batch[index]!;
        const body = eventBody({ ...read, data: read.data! });
        const attemptedAt = new Date();
        attempts++;
        const id = webhookMessageId(read.message_id);
        const result = await sendWebhook(stream.url, { id, body, secret }, options);
        const outcome = outcomeOf(result, 1, options.retrySchedule);
        if (outcome.gone) gone = true;
        outcomes[index] = { eventId: read.id, attemptedAt, outcome };
        options.onAttempt?.({
          result: attemptResult(outcome),
          endpointId: stream.id,
          eventId: read.id,
          attempts: 1,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(stream.stream_slots, 1) }, lane));

  // Past the batch when more wanted events follow it, otherwise past every event read; but never past an
  // event of the batch that was not attempted (the position stays where it is when that is the first read).
  const firstLeft = outcomes.indexOf(undefined);
  const stopAt = firstLeft >= 0 ? events.indexOf(batch[firstLeft]!) : -1;
  const last = stopAt >= 0 ? events[stopAt - 1] : wanted.length > BATCH ? batch.at(-1) : events.at(-1);
  const position = last ? { xid: last.xid, id: last.id } : { xid: stream.stream_xid, id: stream.stream_id };
  // Disabled while the lease is still this batch's, so no other server sends its next batch meanwhile.
  if (gone) await disableGoneEndpoint(db, stream.id, stream.url);
  await recordStream(
    db,
    { id: stream.id, token, position },
    outcomes.filter((outcome) => outcome !== undefined),
  );
  return { attempts, more: firstLeft >= 0 || wanted.length > BATCH || events.length === WINDOW };
}

/** Leases up to `limit` streams under a token of this claim's own. */
export async function claimStreamBatch(
  db: Executor,
  options: { limit: number; perEndpoint: number; leaseMs: number },
) {
  const token = randomUUID();
  return { token, streams: await claimStreams(db, { ...options, token }) };
}
