import { z } from 'zod';
import { idInput, isoTimestamp, pageQuery, sortParam } from './common';
import { operationType } from './operations';

/**
 * Points lots (PROGRAMME-API §1): every credit creates one, every debit consumes some. `open`: points left;
 * `spent`: nothing left and none of it expired; `expired`: nothing left and an expiry took (some of) it.
 */
export const lotStatuses = ['open', 'spent', 'expired'] as const;
export const lotStatus = z.enum(lotStatuses);
export type LotStatus = z.infer<typeof lotStatus>;

export const lot = z.object({
  id: z.uuid(),
  accountId: z.uuid(),
  /** The credit operation that created the lot; null for an account's opening lot (migration 015). */
  creditOperationId: z.uuid().nullable(),
  /** The purchase time (an offline till's `purchasedAt`), else when the credit was booked. */
  earnedAt: isoTimestamp,
  /** earnedAt + the pending period: from then the points can be spent. */
  availableAt: isoTimestamp,
  /** availableAt + the expiry period; null = never expires. */
  expiresAt: isoTimestamp.nullable(),
  points: z.number(),
  remaining: z.number(),
  status: lotStatus,
});
export type Lot = z.infer<typeof lot>;

/** `GET /api/v1/accounts/{id}/lots`: newest first unless `sort=earnedAt,asc`; any other sort is a 400. */
export const lotListQuery = pageQuery
  .omit({ search: true })
  .extend({ status: lotStatus.optional(), sort: sortParam(['earnedAt']) });
export type LotListQuery = z.input<typeof lotListQuery>;

/**
 * `GET /api/v1/accounts/{id}/lots/{lotId}/consumptions`: what the debits took from one lot (PROGRAMME-API §1
 * "every point can be traced"), in the order they took it. `operationId` is the debit's id, as a lot's
 * `creditOperationId` is its credit's; `posOperationId` the till's own id of it (null for an expiry).
 */
export const lotConsumption = z.object({
  operationId: z.uuid(),
  type: operationType,
  posOperationId: z.string().nullable(),
  points: z.number().describe('points the debit took from this lot (positive)'),
  /** When the debit was booked. */
  at: isoTimestamp,
});
export type LotConsumption = z.infer<typeof lotConsumption>;

export const lotParams = z.object({ id: idInput, lotId: idInput });
export const lotConsumptionListQuery = pageQuery.omit({ search: true });
export type LotConsumptionListQuery = z.input<typeof lotConsumptionListQuery>;

/** `GET /api/v1/accounts/{id}/expiry-forecast`: points that expire within 30, 60, 90 days (cumulative). */
export const expiryForecast = z.object({
  in30Days: z.number(),
  in60Days: z.number(),
  in90Days: z.number(),
});
export type ExpiryForecast = z.infer<typeof expiryForecast>;

/** `POST /api/v1/admin/points/expire`: how many accounts had points expire in this run, and how many points. */
export const expirePointsResponse = z.object({
  accounts: z.number().int(),
  points: z.number(),
});
export type ExpirePointsResponse = z.infer<typeof expirePointsResponse>;
