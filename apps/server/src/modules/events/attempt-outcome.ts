import type { DeliveryStatus } from '@loyalty/contracts';
import { isSuccess, type SendResult } from './webhook-sender';

/** What one attempt's answer means for its delivery (a row's or a stream's: the same rules). */
export interface AttemptOutcome {
  responseStatus: number | null;
  error: string | null;
  /** Seconds until the next attempt; null when the delivery is finished (succeeded, or out of retries). */
  retryInSeconds: number | null;
  succeeded: boolean;
}

/** Seconds until the next attempt after `attempts` failed ones, or null when the schedule is used up. */
export function retryDelay(schedule: number[], attempts: number): number | null {
  return attempts <= schedule.length ? schedule[attempts - 1]! : null;
}

/** The outcome of an answer after `attempts` attempts in all. */
export function outcomeOf(result: SendResult, attempts: number, schedule: number[]): AttemptOutcome {
  const succeeded = isSuccess(result);
  return {
    succeeded,
    responseStatus: result.status,
    error: succeeded ? null : (result.error ?? `HTTP ${result.status}`),
    retryInSeconds: succeeded ? null : retryDelay(schedule, attempts),
  };
}

/** The delivery's status after the outcome: succeeded, failed for good, or pending its retry. */
export const statusAfter = (outcome: AttemptOutcome): DeliveryStatus =>
  outcome.succeeded ? 'succeeded' : outcome.retryInSeconds === null ? 'failed' : 'pending';
