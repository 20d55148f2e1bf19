import type { CreateRulesetRequest } from '@loyalty/contracts';

export interface RulesetValues {
  version: string;
  percent: string;
  /** The value of a datetime-local input: local wall-clock time, no zone. */
  activeFrom: string;
}

export type RulesetErrors = Partial<Record<keyof RulesetValues, string>>;

export const emptyRuleset: RulesetValues = { version: '', percent: '', activeFrom: '' };

function hasAtMostTwoDecimals(value: number): boolean {
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
}

/** Spec section 5 "Ruleset": percent 0–100 in steps of 0.01; version and activeFrom optional. */
export function validateRuleset(values: RulesetValues): RulesetErrors {
  const errors: RulesetErrors = {};
  const version = values.version.trim();
  if (version) {
    const n = Number(version);
    if (!Number.isSafeInteger(n) || n < 1) errors.version = 'Version must be a whole number of 1 or more';
  }
  const percent = values.percent.trim();
  if (percent) {
    const n = Number(percent);
    if (!Number.isFinite(n) || n < 0 || n > 100)
      errors.percent = 'Accrual Percentage must be between 0 and 100';
    else if (!hasAtMostTwoDecimals(n)) errors.percent = 'Accrual Percentage may have at most 2 decimals';
  }
  if (values.activeFrom && Number.isNaN(new Date(values.activeFrom).getTime())) {
    errors.activeFrom = 'Active From must be a valid date and time';
  }
  return errors;
}

/**
 * An empty version is left to the server (the current time in seconds), an empty percent is 0, and the
 * local date-time becomes an ISO instant so the server gets the zone the user meant.
 */
export function toCreateRulesetRequest(values: RulesetValues): CreateRulesetRequest {
  const version = values.version.trim();
  const percent = values.percent.trim();
  return {
    version: version ? Number(version) : null,
    config: { percent: percent ? Number(percent) : 0 },
    activeFrom: values.activeFrom ? new Date(values.activeFrom).toISOString() : null,
  };
}
