import { z } from 'zod';

/** Keys of the `settings` table: `holds.ttl_minutes` sets a POS hold's lifetime, `cards.limit_per_account` caps issuing. */
export const settingKeys = ['holds.ttl_minutes', 'cards.limit_per_account'] as const;
export type SettingKey = (typeof settingKeys)[number];

/** Unset values are null: the console shows 'Not configured' / 'No limit set'. */
export const settings = z.object({
  holds: z.object({ ttl_minutes: z.number().int().nullable() }),
  cards: z.object({ limit_per_account: z.number().int().nullable() }),
});
export type Settings = z.infer<typeof settings>;

const settingValue = z
  .number()
  .int('must be a whole number')
  .min(0, 'must be 0 or more')
  .max(1_000_000, 'must be at most 1000000')
  .nullable()
  .optional();

/**
 * Only the values sent change; an absent group or field keeps its value. `null` clears a value (no TTL
 * configured / no card limit).
 */
export const updateSettingsRequest = z.object({
  holds: z.object({ ttl_minutes: settingValue }).optional(),
  cards: z.object({ limit_per_account: settingValue }).optional(),
});
export type UpdateSettingsRequest = z.input<typeof updateSettingsRequest>;
