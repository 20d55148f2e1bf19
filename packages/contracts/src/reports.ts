import { z } from 'zod';
import { BUSINESS_TIME_MAX, BUSINESS_TIME_MIN, idInput } from './common';

/**
 * Finance: the points-flow report (PROGRAMME-API §2). Periods are UTC days or calendar months (UTC);
 * `from` and `to` are days, both included: the first row opens at the start of `from`, the last closes at
 * the end of `to`. A month only partly inside the range counts its days inside it.
 */
export const pointsFlowGroupBy = z.enum(['day', 'month']);
export type PointsFlowGroupBy = z.infer<typeof pointsFlowGroupBy>;

/** Longest range per grouping: a row per day for about a year, a row per month for ten years. */
export const POINTS_FLOW_MAX_DAYS = { day: 400, month: 3660 } as const;

const DAY_MS = 86_400_000;
/** The first day a report takes, and the day after its last (the business time range). */
export const POINTS_FLOW_FIRST_DAY = BUSINESS_TIME_MIN.slice(0, 10);
export const POINTS_FLOW_END_DAY = BUSINESS_TIME_MAX.slice(0, 10);
const minDay = POINTS_FLOW_FIRST_DAY;
const maxDay = POINTS_FLOW_END_DAY;

const reportDay = z.iso
  .date('must be a date (YYYY-MM-DD)')
  .refine((v) => v >= minDay && v < maxDay, `must be between ${minDay} and ${maxDay}`)
  .meta({ description: 'a UTC day, YYYY-MM-DD', example: '2026-01-31' });

export const pointsFlowQuery = z
  .object({
    from: reportDay,
    to: reportDay.meta({
      description:
        'the last day of the range (included); not before from. The range, both days included, is at most ' +
        `${POINTS_FLOW_MAX_DAYS.day} days with groupBy=day and ${POINTS_FLOW_MAX_DAYS.month} days with groupBy=month`,
    }),
    groupBy: pointsFlowGroupBy.default('day'),
    posId: idInput.optional().describe("only this POS's operations (console and imported credits have none)"),
    format: z.enum(['json', 'csv']).optional().describe('csv: the rows as text/csv'),
  })
  .superRefine((query, ctx) => {
    if (query.to < query.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
      return;
    }
    const days = (Date.parse(query.to) - Date.parse(query.from)) / DAY_MS + 1;
    const max = POINTS_FLOW_MAX_DAYS[query.groupBy];
    if (days > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `grouped by ${query.groupBy}, the range may be at most ${max} days`,
      });
    }
  });
export type PointsFlowQuery = z.input<typeof pointsFlowQuery>;

const flow = {
  opening: z.number().describe('Σ balances at the start of the period'),
  earned: z.number().describe('POS accruals'),
  redeemed: z.number().describe('captured points (positive)'),
  returned: z.number().describe('points taken back by POS returns (positive)'),
  expired: z.number().describe('expired points (positive)'),
  adjusted: z.number().describe('console and imported credits (signed)'),
  closing: z.number().describe('opening + earned + adjusted − redeemed − returned − expired'),
};

export const pointsFlowRow = z.object({
  period: z.string().describe('YYYY-MM-DD for a day, YYYY-MM for a month'),
  ...flow,
});
export type PointsFlowRow = z.infer<typeof pointsFlowRow>;

export const pointsFlowReport = z.object({
  rows: z.array(pointsFlowRow).describe('one per period of the range, oldest first, zero-filled'),
  totals: z.object(flow).describe("the range: first row's opening, sums, last row's closing"),
  breakageRate: z
    .number()
    .nullable()
    .describe('expired / (earned + adjusted); null when nothing was credited'),
  redemptionRate: z
    .number()
    .nullable()
    .describe('redeemed / (earned + adjusted); null when nothing was credited'),
  outstanding: z
    .object({
      total: z.number().describe('Σ balances now'),
      pending: z.number().describe('Σ pending balances now (points not yet spendable)'),
      expiring30Days: z.number().describe('points whose lots expire within 30 days'),
    })
    .describe('the whole programme now, whatever the range and POS'),
});
export type PointsFlowReport = z.infer<typeof pointsFlowReport>;
