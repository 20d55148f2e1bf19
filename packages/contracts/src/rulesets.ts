import { z } from 'zod';
import {
  businessTimestamp,
  idInput,
  isoTimestamp,
  listFormat,
  pageQuery,
  SKU_MAX_LENGTH,
  sortParam,
} from './common';

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

/** At most this many rules per ruleset (PROGRAMME-API §3). */
export const RULES_MAX = 50;
/** What a receipt line's `rule` says when no rule of the ruleset's list applied. */
export const reservedRuleNames = ['base', 'excluded', 'minSpend', 'cap'] as const;

const hhmm = (label: string) =>
  z
    .string(`${label} is required`)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} must be a time HH:MM (00:00 to 23:59)`);

/**
 * A field the contract does not know is a 400, never dropped: a misspelt condition dropped would leave a rule
 * that matches every line, a misspelt cap no cap at all.
 */
const knownFieldsOnly = {
  error: (issue: { code?: string; keys?: string[] }) =>
    issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys!.join(', ')}` : undefined,
};

/**
 * One earning rule: a line earns its `percent` when every condition given matches (days and hours in the
 * programme time zone; an absent or empty list is no condition). `hours` covers whole minutes, both ends
 * included, so 22:00–23:59 runs to midnight.
 */
const earningRuleFields = {
  name: z
    .string('Name is required')
    .trim()
    .min(1, 'Name is required')
    .max(100, 'Name must be at most 100 characters')
    .refine((n) => !(reservedRuleNames as readonly string[]).includes(n), {
      message: `Name must not be one of ${reservedRuleNames.join(', ')}`,
    })
    .meta({
      not: { enum: [...reservedRuleNames] },
      description: `unique in the ruleset, and not one of ${reservedRuleNames.join(', ')} (what a line's rule says when none applied)`,
    }),
  percent: z
    .number('Percent must be a number')
    .finite('Percent must be a number')
    .min(0, 'Percent must be between 0 and 1000')
    .max(1000, 'Percent must be between 0 and 1000')
    .multipleOf(0.01, 'Percent may have at most 2 decimals'),
  categories: z
    .array(z.string().trim().min(1, 'Categories must not be blank').max(128))
    .max(100, 'At most 100 categories')
    .optional(),
  skus: z
    .array(z.string().trim().min(1, 'SKUs must not be blank').max(SKU_MAX_LENGTH))
    .max(1000, 'At most 1000 SKUs')
    .optional(),
  posIds: z.array(z.uuid('Stores must be POS key ids')).max(100, 'At most 100 stores').optional(),
  daysOfWeek: z
    .array(
      z
        .number('Days must be numbers 1 (Monday) to 7 (Sunday)')
        .int('Days must be numbers 1 (Monday) to 7 (Sunday)')
        .min(1, 'Days must be numbers 1 (Monday) to 7 (Sunday)')
        .max(7, 'Days must be numbers 1 (Monday) to 7 (Sunday)'),
    )
    .max(7, 'At most 7 days')
    .refine((days) => new Set(days).size === days.length, 'Each day at most once')
    .meta({ uniqueItems: true })
    .optional(),
  // Both ends included; a From after To runs past midnight (22:00–02:00, an evening offer), and From equal to
  // To is that one minute. Each minute is read on its own day: with daysOfWeek, Friday 22:00–02:00 is Friday's
  // 00:00–01:59 and 22:00–23:59, so an offer for Friday night into Saturday is still two rules.
  hours: z.object({ from: hhmm('From'), to: hhmm('To') }).optional(),
};
// A store in capitals is the same POS key id (RFC 9562); the rule compares stores with the till's id as text, so
// a request's stores are lower-cased, as the database stores ids (a rule for 'ABC…' never matched the till 'abc…').
export const earningRule = z.strictObject(
  {
    ...earningRuleFields,
    posIds: z
      .array(z.uuid('Stores must be POS key ids').transform((id) => id.toLowerCase()))
      .max(100, 'At most 100 stores')
      .optional(),
  },
  knownFieldsOnly,
);
export type EarningRule = z.infer<typeof earningRule>;

const capMessage = (label: string) => `${label} must be between 0 and 1000000000`;
const optionalAmount = (label: string) =>
  z
    .number(`${label} must be a number`)
    .finite(`${label} must be a number`)
    .min(0, capMessage(label))
    .max(1_000_000_000, capMessage(label))
    .multipleOf(0.01, `${label} may have at most 2 decimals`)
    .nullish()
    .transform((v) => v ?? null);

/** The ruleset's `config` beyond the base percent (PROGRAMME-API §3); each part may be absent. */
const rulesetAdvancedFields = {
  minSpend: optionalAmount('Minimum spend').describe('a receipt totalAmount below this earns nothing'),
  maxPointsPerReceipt: optionalAmount('Max points per receipt'),
  maxPointsPerCardPerDay: optionalAmount('Max points per card per day').describe(
    'per card per programme day (setting programme.timezone), across receipts',
  ),
  rules: z
    .array(earningRule)
    .max(RULES_MAX, `At most ${RULES_MAX} rules`)
    .superRefine((rules, ctx) => {
      const seen = new Set<string>();
      rules.forEach((rule, index) => {
        if (seen.has(rule.name))
          ctx.addIssue({ code: 'custom', message: 'Rule names must be unique', path: [index, 'name'] });
        seen.add(rule.name);
      });
    })
    .default([])
    .describe('each rule with a name of its own (names are unique in the ruleset)'),
};
export const rulesetAdvanced = z.strictObject(rulesetAdvancedFields, knownFieldsOnly);
export type RulesetAdvanced = z.infer<typeof rulesetAdvanced>;

export const rulesetConfig = z.object({
  percent: z.number(),
  minSpend: z.number().nullable(),
  maxPointsPerReceipt: z.number().nullable(),
  maxPointsPerCardPerDay: z.number().nullable(),
  // As stored: a read is never refused over a field (the request is).
  rules: z.array(z.object(earningRuleFields)),
});
export type RulesetConfig = z.infer<typeof rulesetConfig>;

export const ruleset = z.object({
  id: z.uuid(),
  version: z.number().int(),
  status: rulesetStatus,
  config: rulesetConfig,
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
  config: rulesetAdvanced.extend({
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

/** `POST /api/v1/rulesets/{id}/backtest`: the stored receipts of [from, to) recomputed with the ruleset. */
export const BACKTEST_MAX_DAYS = 366;
export const backtestRequest = z
  .object({
    from: businessTimestamp('from must be an ISO-8601 date-time with a time zone'),
    to: businessTimestamp('to must be an ISO-8601 date-time with a time zone').meta({
      description: `after from, and at most ${BACKTEST_MAX_DAYS} days after it; same format and range as from`,
    }),
  })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), { message: 'to must be after from', path: ['to'] })
  .refine((r) => Date.parse(r.to) - Date.parse(r.from) <= BACKTEST_MAX_DAYS * 86_400_000, {
    message: `the range may span at most ${BACKTEST_MAX_DAYS} days`,
    path: ['to'],
  });
export type BacktestRequest = z.infer<typeof backtestRequest>;

export const backtestResponse = z.object({
  receipts: z.number().int(),
  accounts: z.number().int(),
  currentPoints: z.number().describe('what the receipts earned when they were booked'),
  candidatePoints: z.number().describe('what they would earn with this ruleset'),
  delta: z.number().describe('candidatePoints − currentPoints'),
  byCategory: z.array(
    z.object({
      category: z.string().nullable(),
      receipts: z.number().int(),
      currentPoints: z.number(),
      candidatePoints: z.number(),
    }),
  ),
});
export type BacktestResponse = z.infer<typeof backtestResponse>;

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
  // The max has its own message, as for a client ID (accounts.ts).
  sku: z
    .string('SKU is required')
    .trim()
    .min(1, 'SKU is required')
    .max(SKU_MAX_LENGTH, `SKU must be at most ${SKU_MAX_LENGTH} characters`)
    // A browser resolves `.` and `..` in a path as dot segments (also spelled %2E), so no console could
    // ever send the DELETE of such an exclusion; a till's SKU is never only that.
    .refine((sku) => sku !== '.' && sku !== '..', "SKU cannot be '.' or '..'"),
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

export const rulesetSkuParams = z.object({ id: idInput, sku: z.string().min(1).max(SKU_MAX_LENGTH) });

export const skuCategories = z.array(z.string());
