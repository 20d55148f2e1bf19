import { parseArgs } from 'node:util';
import { defaultSeedOptions, type SeedOptions } from './seed';

export const SEED_USAGE = 'Usage: npm run seed [-- --accounts 2000 --days 30 --per-day 220]';

/** Each option: what it sets and the whole numbers it takes. */
const BOUNDS = {
  accounts: { key: 'accounts', min: 1, max: 100_000 },
  days: { key: 'days', min: 1, max: 365 },
  'per-day': { key: 'purchasesPerDay', min: 1, max: 100_000 },
} as const;

/** A bad argument of `npm run seed`, found before anything is written. */
export class SeedUsageError extends Error {}

/**
 * Reads `npm run seed`'s arguments. `Number()` unchecked took "abc" and "1k" for NaN and seeded no account
 * (after the rulesets, so the database could never be seeded again), and "-5" failed half-way with a stack.
 */
export function parseSeedArguments(
  args: string[],
): Pick<SeedOptions, 'accounts' | 'days' | 'purchasesPerDay'> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: { accounts: { type: 'string' }, days: { type: 'string' }, 'per-day': { type: 'string' } },
    }).values;
  } catch (error) {
    // parseArgs says what is wrong (an unknown option, a missing value); the usage says what is right.
    throw new SeedUsageError(`${(error as Error).message}\n${SEED_USAGE}`);
  }
  const options = {
    accounts: defaultSeedOptions.accounts,
    days: defaultSeedOptions.days,
    purchasesPerDay: defaultSeedOptions.purchasesPerDay,
  };
  for (const [name, { key, min, max }] of Object.entries(BOUNDS)) {
    const value = values[name];
    if (typeof value !== 'string') continue;
    const number = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(number >= min && number <= max)) {
      throw new SeedUsageError(
        `--${name} must be a whole number from ${min} to ${max} (not ${JSON.stringify(value)})\n${SEED_USAGE}`,
      );
    }
    options[key] = number;
  }
  return options;
}
