import type { DeliveryStatus } from '@loyalty/contracts';
import { isSuccess, type SendResult } from './webhook-sender';

/** What one attempt's answer means for its delivery (a row's or a stream's: the same rules). */
export interface AttemptOutcome {
  responseStatus: number | null;
  error: string | null;
  /** Seconds until the next attempt; null when the delivery is finished (succeeded, or out of retries). */
  retryInSeconds: number | null;
  succeeded: boolean;
  /**
   * The receiver answered 410 Gone: Standard Webhooks asks the sender to disable the endpoint and stop
   * sending. The delivery is `failed` at once, and the endpoint is disabled (`disableGoneEndpoint`).
   */
  gone: boolean;
}

/** Why a delivery answered 410 failed, as its `lastError` says. */
export const GONE_ERROR = 'HTTP 410 Gone: the receiver asked to stop sending; the endpoint was disabled';

/** Seconds until the next attempt after `attempts` failed ones, or null when the schedule is used up. */
export function retryDelay(schedule: number[], attempts: number): number | null {
  return attempts <= schedule.length ? schedule[attempts - 1]! : null;
}

/**
 * The seconds a `Retry-After` header asks to wait: a number of seconds, or an HTTP date (RFC 9110 §10.2.3);
 * null when it is neither. A date in the past asks for nothing (0).
 */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | null {
  const value = header?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The wait before the next attempt: the schedule's step, or later when a 429 or 503 says `Retry-After` a
 * later time (the receiver knows when it will take work again), but never past the schedule's last step, so
 * a receiver cannot push its retries out of reach (nor a misconfigured one to next year).
 */
function nextWait(result: SendResult, step: number | null, schedule: number[]): number | null {
  if (step === null) return null;
  if (result.status !== 429 && result.status !== 503) return step;
  const asked = retryAfterSeconds(result.retryAfter);
  if (asked === null || asked <= step) return step;
  return Math.max(step, Math.min(asked, schedule.at(-1) ?? step));
}

/** The outcome of an answer after `attempts` attempts in all. */
export function outcomeOf(result: SendResult, attempts: number, schedule: number[]): AttemptOutcome {
  const succeeded = isSuccess(result);
  const gone = !succeeded && result.status === 410;
  return {
    succeeded,
    gone,
    responseStatus: result.status,
    error: succeeded ? null : gone ? GONE_ERROR : (result.error ?? `HTTP ${result.status}`),
    retryInSeconds: succeeded || gone ? null : nextWait(result, retryDelay(schedule, attempts), schedule),
  };
}

/** The delivery's status after the outcome: succeeded, failed for good, or pending its retry. */
export const statusAfter = (outcome: AttemptOutcome): DeliveryStatus =>
  outcome.succeeded ? 'succeeded' : outcome.retryInSeconds === null ? 'failed' : 'pending';
