import { z } from 'zod';
import { businessTimestamp, isoTimestamp, listFormat, pageQuery, sortParam } from './common';

/**
 * Versions are positive 32-bit integers (issue 15.3: an unbounded version could outrank every later one
 * for ever). The automatic version is the current time in seconds, which fits until 2038-01-19.
 */
export const RULESET_VERSION_MAX = 2_147_483_647;

/**
 * Derived from activeFrom: none → Draft, not in the future → Active, in the future → Scheduled; a
 * retired ruleset is Retired whatever its activeFrom (it is never in force again).
 */
export const rulesetStatuses = ['Active', 'Draft', 'Scheduled', 'Retired'] as const;
export const rulesetStatus = z.enum(rulesetStatuses);
export type RulesetStatus = z.infer<typeof rulesetStatus>;

export const ruleset = z.object({
  id: z.uuid(),
  version: z.number().int(),
  status: rulesetStatus,
  config: z.object({ percent: z.number() }),
  activeFrom: isoTimestamp.nullable(),
  createdBy: z.string(),
  createdAt: isoTimestamp,
  /** The one the POS uses: highest version among those not retired whose activeFrom has passed. */
  inForce: z.boolean(),
  retiredAt: isoTimestamp.nullable(),
  retiredBy: z.string().nullable(),
});
export type Ruleset = z.infer<typeof ruleset>;

const PERCENT_RANGE = 'Accrual Percentage must be between 0 and 100';

export const createRulesetRequest = z.object({
  /** Absent, null or '' → the current time in seconds. */
  version: z.preprocess(
    (v) => (v === '' ? null : v),
    z
      .number('Version must be a number')
      .int('Version must be a whole number')
      .min(1, 'Version must be at least 1')
      .max(RULESET_VERSION_MAX, `Version must be at most ${RULESET_VERSION_MAX}`)
      .nullish()
      .transform((v) => v ?? null),
  ),
  // The console shows these messages under its 'Accrual Percentage' field as they are.
  config: z.object({
    percent: z
      .number('Accrual Percentage must be a number')
      .finite('Accrual Percentage must be a number')
      .min(0, PERCENT_RANGE)
      .max(100, PERCENT_RANGE)
      .multipleOf(0.01, 'Accrual Percentage may have at most 2 decimals'),
  }),
  /** ISO-8601 with a zone (Z or ±hh:mm); absent, null or '' → Draft. */
  activeFrom: z
    .union([z.literal(''), businessTimestamp('activeFrom must be an ISO-8601 date-time with a time zone')])
    .nullish()
    .transform((v) => (v ? v : null)),
});
export type CreateRulesetRequest = z.input<typeof createRulesetRequest>;

export const rulesetSortFields = ['version', 'activeFrom', 'createdAt', 'percent'] as const;

export const rulesetListQuery = pageQuery.extend({
  format: listFormat,
  /** Case-insensitive: `active` and `Active` both work. */
  status: z.preprocess(
    (v) => (typeof v === 'string' && v ? v[0]!.toUpperCase() + v.slice(1).toLowerCase() : v),
    rulesetStatus.optional(),
  ),
  sort: sortParam(rulesetSortFields),
});
export type RulesetListQuery = z.input<typeof rulesetListQuery>;

export const excludedSku = z.object({
  sku: z.string(),
  description: z.string().nullable(),
  category: z.string().nullable(),
  createdAt: isoTimestamp,
});
export type ExcludedSku = z.infer<typeof excludedSku>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const createExcludedSkuRequest = z.object({
  sku: z.string('SKU is required').trim().min(1, 'SKU is required').max(100),
  description: optionalText(500),
  category: optionalText(100),
});
export type CreateExcludedSkuRequest = z.input<typeof createExcludedSkuRequest>;

export const excludedSkuSortFields = ['sku', 'description', 'category', 'createdAt'] as const;

export const excludedSkuListQuery = pageQuery.extend({
  format: listFormat,
  /** Absent: every category. Present but empty (`category=`): the SKUs without a category. */
  category: z.string().trim().max(100).optional(),
  sort: sortParam(excludedSkuSortFields),
});
export type ExcludedSkuListQuery = z.input<typeof excludedSkuListQuery>;

export const rulesetSkuParams = z.object({ id: z.uuid(), sku: z.string().min(1).max(100) });

export const skuCategories = z.array(z.string());
