import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/executor';
import type { KeyCrypto } from '../pos-keys/key-crypto';
import { outcomeOf } from './attempt-outcome';
import { eventBody } from './events.repository';
import {
  type ClaimedStream,
  claimStreams,
  readLeasedStream,
  recordStream,
  type StreamOutcome,
} from './streams.repository';
import { type SendOptions, sendWebhook } from './webhook-sender';

/** Events read from a stream at once, and at most this many of them sent in one batch. */
const WINDOW = 256;
const BATCH = 64;

export interface StreamOptions extends SendOptions {
  retrySchedule: number[];
}

/**
 * Sends one leased stream's next batch, `stream_slots` attempts at a time, then records every outcome and
 * the new position in one statement. It reads from where the stream stands when it reads, not from the
 * claim's position (the endpoint may have been disabled and enabled again since), and sends to the claim's
 * URL. No attempt starts once `timeoutMs` has passed since the batch began, so every attempt ends well
 * inside the lease (2 × the time limit + 5 s); the events left are queued as delivery rows, due at once,
 * for the rows' worker. Returns the attempts made, and whether the stream
 * had more to read than one batch (a backlog: worth claiming again at once).
 */
export async function deliverStream(
  db: Executor,
  crypto: KeyCrypto,
  options: StreamOptions,
  stream: ClaimedStream,
  token: string,
): Promise<{ attempts: number; more: boolean }> {
  const started = Date.now();
  const events = await readLeasedStream(db, { id: stream.id, token }, WINDOW);
  const wanted = events.filter((event) => event.data !== null);
  const batch = wanted.slice(0, BATCH);
  // Past the batch when more wanted events follow it; otherwise past every event read.
  const last = wanted.length > BATCH ? batch.at(-1) : events.at(-1);
  const position = last ? { xid: last.xid, id: last.id } : { xid: stream.stream_xid, id: stream.stream_id };
  const secret = batch.length > 0 ? crypto.decrypt(stream.secret_cipher, stream.id) : '';
  const outcomes: StreamOutcome[] = batch.map((event) => ({
    eventId: event.id,
    attemptedAt: null,
    outcome: null,
  }));
  let next = 0;
  let attempts = 0;
  const lane = async () => {
    while (next < batch.length && Date.now() - started < options.timeoutMs) {
      const index = next++;
      const read = batch[index]!;
      const body = eventBody({ ...read, data: read.data! });
      const attemptedAt = new Date();
      attempts++;
      const result = await sendWebhook(stream.url, { id: String(read.id), body, secret }, options);
      const outcome = outcomeOf(result, 1, options.retrySchedule);
      outcomes[index] = { eventId: read.id, attemptedAt, outcome };
    }
  };
  await Promise.all(Array.from({ length: Math.max(stream.stream_slots, 1) }, lane));
  await recordStream(db, { id: stream.id, token, position }, outcomes);
  return { attempts, more: wanted.length > BATCH || events.length === WINDOW };
}

/** Leases up to `limit` streams under a token of this claim's own. */
export async function claimStreamBatch(
  db: Executor,
  options: { limit: number; perEndpoint: number; leaseMs: number },
) {
  const token = randomUUID();
  return { token, streams: await claimStreams(db, { ...options, token }) };
}
