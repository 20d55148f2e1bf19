import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';

/** The inputs as typed: '' means "leave this setting as it is". */
export interface SettingsValues {
  ttlMinutes: string;
  cardsLimit: string;
}

export type SettingsErrors = Partial<Record<keyof SettingsValues, string>>;

/** Same ceiling as the server's contract. */
const MAX_SETTING = 1_000_000;

export function toSettingsValues(settings: Settings | undefined): SettingsValues {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? '' : String(value);
  return {
    ttlMinutes: text(settings?.holds.ttl_minutes),
    cardsLimit: text(settings?.cards.limit_per_account),
  };
}

function checkWholeNumber(raw: string, label: string): string | undefined {
  const text = raw.trim();
  if (!text) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value)) return `${label} must be a whole number`;
  if (value < 0) return `${label} must be 0 or more`;
  if (value > MAX_SETTING) return `${label} must be at most ${MAX_SETTING.toLocaleString('en-US')}`;
  return undefined;
}

/** Spec section 5 "Settings": both numbers have a minimum of 0 (and the server stores whole numbers). */
export function validateSettings(values: SettingsValues): SettingsErrors {
  const errors: SettingsErrors = {};
  const ttl = checkWholeNumber(values.ttlMinutes, 'Holds TTL');
  const cards = checkWholeNumber(values.cardsLimit, 'Cards per Account');
  if (ttl) errors.ttlMinutes = ttl;
  if (cards) errors.cardsLimit = cards;
  return errors;
}

/** Spec section 5: only the non-empty values are sent; an empty input keeps the stored value. */
export function toUpdateSettingsRequest(values: SettingsValues): UpdateSettingsRequest {
  const body: UpdateSettingsRequest = {};
  if (values.ttlMinutes.trim()) body.holds = { ttl_minutes: Number(values.ttlMinutes) };
  if (values.cardsLimit.trim()) body.cards = { limit_per_account: Number(values.cardsLimit) };
  return body;
}
