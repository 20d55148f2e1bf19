import { describe, expect, it } from 'vitest';
import { defaultSeedOptions } from './seed';
import { parseSeedArguments, SeedUsageError } from './seed-arguments';

describe('npm run seed arguments', () => {
  it('takes whole numbers, and the defaults for what is not given', () => {
    expect(parseSeedArguments(['--accounts', '500', '--days', '14', '--per-day', '100'])).toEqual({
      accounts: 500,
      days: 14,
      purchasesPerDay: 100,
    });
    expect(parseSeedArguments([])).toEqual({
      accounts: defaultSeedOptions.accounts,
      days: defaultSeedOptions.days,
      purchasesPerDay: defaultSeedOptions.purchasesPerDay,
    });
  });

  // "abc" and "1k" seeded no account and left a database that could never be seeded again; "-5" a stack.
  it.each([
    [['--accounts', 'abc'], '--accounts must be a whole number from 1 to 100000 (not "abc")'],
    [['--accounts', '1k'], '--accounts must be a whole number'],
    [['--accounts=-5'], '--accounts must be a whole number'],
    [['--accounts', '0'], '--accounts must be a whole number'],
    [['--days', '2.5'], '--days must be a whole number'],
    [['--per-day', ''], '--per-day must be a whole number'],
    [['--acounts', '5'], "Unknown option '--acounts'"],
  ])('%j is a usage error', (args, message) => {
    const parse = () => parseSeedArguments(args);
    expect(parse).toThrow(SeedUsageError);
    expect(parse).toThrow(message);
    expect(parse).toThrow('Usage: npm run seed');
  });
});
