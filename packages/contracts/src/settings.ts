import { z } from 'zod';

/**
 * Numeric keys of the `settings` table: `holds.ttl_minutes` sets a POS hold's lifetime (unset: holds last
 * 15 minutes), `cards.limit_per_account` caps an account's cards that are not blocked (unset: no cap),
 * `points.expiry_days` is how long earned points stay spendable once available (unset: they never expire),
 * `points.pending_days` how long they wait before they can be spent (unset or 0: at once) — PROGRAMME-API §1.
 * Changing the points settings only dates the lots earned afterwards.
 */
export const settingKeys = [
  'holds.ttl_minutes',
  'cards.limit_per_account',
  'points.expiry_days',
  'points.pending_days',
] as const;
export type SettingKey = (typeof settingKeys)[number];

/** Text keys of the `settings` table (stored in `text_value`). */
export const textSettingKeys = ['programme.currency', 'programme.timezone'] as const;
export type TextSettingKey = (typeof textSettingKeys)[number];

/** The programme's currency when none was chosen. */
export const DEFAULT_CURRENCY = 'EUR';

/** ISO 4217 codes this runtime knows (Node and every current browser ship the list with Intl). */
function isKnownCurrency(code: string): boolean {
  return typeof Intl.supportedValuesOf !== 'function' || Intl.supportedValuesOf('currency').includes(code);
}

/** An ISO 4217 alphabetic code, upper case after trimming ('eur' → 'EUR'). */
export const currencyCode = z
  .string('Currency is required')
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Currency must be a three-letter ISO 4217 code')
  .refine(isKnownCurrency, 'Currency must be a three-letter ISO 4217 code');

/** The programme's time zone when none was chosen: the days and hours of earning rules, the day of a cap. */
export const DEFAULT_TIME_ZONE = 'UTC';

/** Whether this runtime knows the IANA zone (the server checks PostgreSQL knows it too). */
function isKnownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone name such as Europe/Berlin or UTC. */
export const timeZoneName = z
  .string('Time zone is required')
  .trim()
  .min(1, 'Time zone is required')
  .max(64, 'Time zone must be an IANA name such as Europe/Berlin')
  .regex(/^[A-Za-z][A-Za-z0-9_+\-/]*$/, 'Time zone must be an IANA name such as Europe/Berlin')
  .refine(isKnownTimeZone, 'Time zone must be an IANA name such as Europe/Berlin');

/**
 * Unset values are null: the console shows 'Not configured' / 'No limit set' (an unset TTL still gives holds
 * the POS default of 15 minutes). The currency always has a value.
 */
export const settings = z.object({
  holds: z.object({ ttl_minutes: z.number().int().nullable() }),
  cards: z.object({ limit_per_account: z.number().int().nullable() }),
  points: z.object({
    expiry_days: z.number().int().nullable(),
    pending_days: z.number().int().nullable(),
  }),
  programme: z.object({ currency: z.string(), timezone: z.string() }),
});
export type Settings = z.infer<typeof settings>;

/** The console shows these messages under its fields as they are, so each names its field. */
const settingValue = (label: string, min = 0) =>
  z
    .number(`${label} must be a whole number`)
    .int(`${label} must be a whole number`)
    .min(min, min === 0 ? `${label} must be 0 or more` : `${label} must be at least ${min}`)
    .max(1_000_000, `${label} must be at most 1000000`)
    .nullable()
    .optional();

/**
 * Only the values sent change; an absent group or field keeps its value. `null` clears a number (no TTL
 * configured, so the 15-minute default / no card limit / points that never expire / no pending period); the
 * currency cannot be cleared. Unknown keys are refused, not ignored: `{holds: {ttlMinutes: 30}}` answered 200
 * and changed nothing.
 */
export const updateSettingsRequest = z.strictObject({
  // A TTL of 0 made every hold lapse as it was made: answered "active" to the till, never capturable.
  holds: z.strictObject({ ttl_minutes: settingValue('Holds TTL', 1) }).optional(),
  cards: z.strictObject({ limit_per_account: settingValue('Cards per Account') }).optional(),
  points: z
    .strictObject({
      expiry_days: settingValue('Expiry (days)'),
      pending_days: settingValue('Pending period (days)'),
    })
    .optional(),
  programme: z
    .strictObject({ currency: currencyCode.optional(), timezone: timeZoneName.optional() })
    .optional(),
});
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequest>;
