import { createRulesetRequest, type EarningRule, earningRule, rulesetAdvanced } from '@loyalty/contracts';
import { z } from 'zod';
import { numberFromInput, optionalNumberFromInput } from '@/lib/form';
import { zonedLocalToIso } from '@/lib/programme-time';

const { version, config, activeFrom } = createRulesetRequest.shape;
const advanced = rulesetAdvanced.shape;

/** "dairy, bakery" → ['dairy', 'bakery']; blanks between commas are dropped. */
const listFromText = (field: z.ZodType<string[], string[]>) =>
  z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(field);

/**
 * Checked boxes of one name: react-hook-form gives an array for several boxes, but the value itself (or
 * false) when only one box is on the page (a single POS key).
 */
const checkedValues = z
  .union([z.array(z.string()), z.string(), z.boolean(), z.undefined()])
  .transform((v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : []));

/**
 * One rule as typed: lists as comma-separated text, stores and days as checked boxes, hours as two time
 * inputs (both empty: no hours condition). The contract's own fields check each, so the messages under the
 * inputs are the server's.
 */
export const ruleFormSchema = z.object({
  name: earningRule.shape.name,
  percent: numberFromInput(earningRule.shape.percent),
  categories: listFromText(earningRule.shape.categories.unwrap()),
  skus: listFromText(earningRule.shape.skus.unwrap()),
  posIds: checkedValues.pipe(earningRule.shape.posIds.unwrap()),
  daysOfWeek: checkedValues.transform((days) => days.map(Number)).pipe(earningRule.shape.daysOfWeek.unwrap()),
  hours: z
    .object({ from: z.string(), to: z.string() })
    .transform((h) => (h.from || h.to ? h : undefined))
    .pipe(earningRule.shape.hours),
});

export interface RuleFormValues {
  name: string;
  percent: string;
  categories: string;
  skus: string;
  posIds: z.input<typeof checkedValues>;
  daysOfWeek: z.input<typeof checkedValues>;
  hours: { from: string; to: string };
}

export const emptyRule: RuleFormValues = {
  name: '',
  percent: '',
  categories: '',
  skus: '',
  posIds: [],
  daysOfWeek: [],
  hours: { from: '', to: '' },
};

/**
 * The create form's inputs as typed, checked by the contract's own fields: an empty version is left to the
 * server (the current time in seconds), an empty percent is 0 (spec section 5), and the datetime-local
 * value (wall-clock time, no zone) is read on the programme's clocks (`timeZone`, as the rule hours are,
 * whatever the browser's zone) and becomes an ISO instant, so the server gets the moment the user meant.
 * The advanced part (minimum spend, caps, rules) is optional: left empty, the ruleset is a plain one.
 */
export const rulesetFormSchema = (timeZone: string) =>
  z
    .object({
      version: optionalNumberFromInput(version, null),
      percent: optionalNumberFromInput(config.shape.percent, 0),
      activeFrom: z
        .string()
        .transform((local): string | null | undefined => {
          if (!local) return null;
          // Not a date-time: left as typed, for the contract's own message.
          return zonedLocalToIso(local, timeZone) ?? local;
        })
        .pipe(activeFrom),
      minSpend: optionalNumberFromInput(advanced.minSpend, null),
      maxPointsPerReceipt: optionalNumberFromInput(advanced.maxPointsPerReceipt, null),
      maxPointsPerCardPerDay: optionalNumberFromInput(advanced.maxPointsPerCardPerDay, null),
      // The contract's list check (at most 50, names unique) over the rules as parsed.
      rules: z
        .array(ruleFormSchema)
        .pipe(
          advanced.rules.unwrap() as unknown as z.ZodType<EarningRule[], z.output<typeof ruleFormSchema>[]>,
        ),
    })
    .transform(({ version, activeFrom, percent, rules, ...amounts }) => ({
      version,
      // Only what was given: a plain ruleset is sent as the spec's form sends it ({percent}).
      config: {
        percent,
        ...Object.fromEntries(Object.entries(amounts).filter(([, value]) => value !== null)),
        ...(rules.length > 0 ? { rules } : {}),
      },
      activeFrom,
    }));

export const emptyRuleset = {
  version: '',
  percent: '',
  activeFrom: '',
  minSpend: '',
  maxPointsPerReceipt: '',
  maxPointsPerCardPerDay: '',
  rules: [] as RuleFormValues[],
};
