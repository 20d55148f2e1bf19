import type { EarningRule, RulesetAdvanced } from '@loyalty/contracts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRuleset } from './earning-rules';
import { arbitraryConfig, arbitraryItems, referencePoints, SKUS } from './earning-rules.fixtures';
import { programmeTime } from './programme-clock';
import { computeReceipt, type ReceiptLineInput } from './receipt-math';

const POS_A = '00000000-0000-4000-8000-00000000000a';
const POS_B = '00000000-0000-4000-8000-00000000000b';

const line = (sku: string, category: string | null, price: number): ReceiptLineInput => ({
  sku,
  category,
  quantity: 1,
  price,
  discount: 0,
});

interface Setup {
  percent?: string;
  advanced?: Partial<RulesetAdvanced>;
  excluded?: string[];
  posId?: string;
  at?: string;
  timeZone?: string;
  earnedToday?: bigint;
}

function compute(items: ReceiptLineInput[], s: Setup = {}) {
  const time = programmeTime(new Date(s.at ?? '2026-11-23T12:00:00Z'), s.timeZone ?? 'UTC'); // a Monday
  return computeReceipt(items, {
    ruleset: compileRuleset(s.percent ?? '1.00', s.advanced ?? null),
    excluded: new Set(s.excluded ?? []),
    purchase: { posId: s.posId ?? POS_A, dayOfWeek: time.dayOfWeek, minute: time.minute },
    earnedTodayCents: s.earnedToday ?? 0n,
  });
}
const rules = (...list: EarningRule[]) => ({ advanced: { rules: list } });
const outcome = (r: ReturnType<typeof compute>) => r.lines.map((l) => [l.rule, Number(l.bonusCents) / 100]);

describe('earning rules: each condition alone', () => {
  const items = [line('MILK', 'dairy', 100), line('TV', 'electronics', 100)];

  it('categories: only lines of a listed category; a line without a category never matches', () => {
    const r = compute(
      [...items, line('X', null, 100)],
      rules({ name: 'Dairy x5', percent: 5, categories: ['dairy'] }),
    );
    expect(outcome(r)).toEqual([
      ['Dairy x5', 5],
      ['base', 1],
      ['base', 1],
    ]);
  });

  it('skus: only the listed SKUs', () => {
    expect(outcome(compute(items, rules({ name: 'TV', percent: 3, skus: ['TV'] })))).toEqual([
      ['base', 1],
      ['TV', 3],
    ]);
  });

  it('posIds: only receipts of the listed stores', () => {
    const setup = rules({ name: 'Opening', percent: 4, posIds: [POS_B] });
    expect(outcome(compute(items, setup))).toEqual([
      ['base', 1],
      ['base', 1],
    ]);
    expect(outcome(compute(items, { ...setup, posId: POS_B }))).toEqual([
      ['Opening', 4],
      ['Opening', 4],
    ]);
  });

  it('daysOfWeek: ISO days, 1 = Monday … 7 = Sunday', () => {
    const weekend = rules({ name: 'Weekend', percent: 2, daysOfWeek: [6, 7] });
    expect(outcome(compute(items, weekend))[0]).toEqual(['base', 1]); // Monday 2026-11-23
    expect(outcome(compute(items, { ...weekend, at: '2026-11-22T12:00:00Z' }))[0]).toEqual(['Weekend', 2]);
    expect(outcome(compute(items, { ...weekend, at: '2026-11-21T00:00:00Z' }))[0]).toEqual(['Weekend', 2]);
  });

  it('hours: whole minutes, both ends included', () => {
    const lunch = rules({ name: 'Lunch', percent: 2, hours: { from: '12:00', to: '13:59' } });
    const at = (time: string) => outcome(compute(items, { ...lunch, at: `2026-11-23T${time}Z` }))[0]![0];
    expect(at('11:59:59')).toBe('base');
    expect(at('12:00:00')).toBe('Lunch');
    expect(at('13:59:59')).toBe('Lunch');
    expect(at('14:00:00')).toBe('base');
  });

  it('hours: a From after To runs past midnight, and From equal to To is that one minute', () => {
    const night = rules({ name: 'Night', percent: 4, hours: { from: '22:00', to: '01:59' } });
    const at = (time: string) => outcome(compute(items, { ...night, at: `2026-11-23T${time}Z` }))[0]![0];
    expect(at('21:59:59')).toBe('base');
    expect(at('22:00:00')).toBe('Night');
    expect(at('23:59:59')).toBe('Night');
    expect(at('00:00:00')).toBe('Night');
    expect(at('01:59:59')).toBe('Night');
    expect(at('02:00:00')).toBe('base');
    expect(at('12:00:00')).toBe('base');
    const noon = rules({ name: 'Noon', percent: 4, hours: { from: '12:00', to: '12:00' } });
    const atNoon = (time: string) => outcome(compute(items, { ...noon, at: `2026-11-23T${time}Z` }))[0]![0];
    expect(atNoon('11:59:59')).toBe('base');
    expect(atNoon('12:00:30')).toBe('Noon');
    expect(atNoon('12:01:00')).toBe('base');
  });
});

describe('earning rules: combined', () => {
  it('a rule needs every condition it gives; the highest percent of the matching rules wins, first on a tie', () => {
    const setup = rules(
      { name: 'Dairy at B', percent: 3, categories: ['dairy'], posIds: [POS_B] },
      {
        name: 'Dairy Monday',
        percent: 6,
        categories: ['dairy'],
        daysOfWeek: [1],
        hours: { from: '10:00', to: '14:00' },
      },
      { name: 'Milk', percent: 6, skus: ['MILK'] },
      { name: 'Low', percent: 0.5, skus: ['TV'] },
    );
    const items = [line('MILK', 'dairy', 100), line('CHEESE', 'dairy', 100), line('TV', 'electronics', 100)];
    expect(outcome(compute(items, setup))).toEqual([
      ['Dairy Monday', 6],
      ['Dairy Monday', 6],
      ['Low', 0.5], // a matching rule applies even below the base
    ]);
    expect(outcome(compute(items, { ...setup, at: '2026-11-23T15:00:00Z', posId: POS_B }))).toEqual([
      ['Milk', 6],
      ['Dairy at B', 3],
      ['Low', 0.5],
    ]);
  });

  it('an excluded SKU earns 0 whatever rule would match it, under minSpend and caps too', () => {
    const setup = {
      excluded: ['MILK'],
      advanced: { rules: [{ name: 'Milk', percent: 1000, skus: ['MILK'] }], maxPointsPerReceipt: 1 },
    };
    expect(outcome(compute([line('MILK', 'dairy', 100), line('TV', null, 10)], setup))).toEqual([
      ['excluded', 0],
      ['base', 0.1],
    ]);
    const low = { ...setup, advanced: { ...setup.advanced, minSpend: 1000 } };
    expect(outcome(compute([line('MILK', 'dairy', 100), line('TV', null, 10)], low))).toEqual([
      ['excluded', 0],
      ['minSpend', 0],
    ]);
  });
});

describe('time zone edges', () => {
  const late = rules({ name: 'Late', percent: 7, hours: { from: '22:00', to: '23:59' }, daysOfWeek: [1] });
  const items = [line('A', null, 100)];
  const ruleAt = (at: string) => compute(items, { ...late, at, timeZone: 'Europe/Berlin' }).lines[0]!.rule;

  it('22:00–23:59 is read in the programme zone (Berlin is UTC+1 in November), to midnight', () => {
    expect(ruleAt('2026-11-23T20:59:59Z')).toBe('base'); // 21:59:59 Monday in Berlin
    expect(ruleAt('2026-11-23T21:00:00Z')).toBe('Late'); // 22:00 Monday
    expect(ruleAt('2026-11-23T22:59:59Z')).toBe('Late'); // 23:59:59 Monday
    expect(ruleAt('2026-11-23T23:00:00Z')).toBe('base'); // 00:00 Tuesday in Berlin, still Monday in UTC
    expect(ruleAt('2026-11-22T21:30:00Z')).toBe('base'); // 22:30 Sunday
    // The same instants read in UTC fall the other way.
    expect(compute(items, { ...late, at: '2026-11-23T22:30:00Z' }).lines[0]!.rule).toBe('Late');
    expect(compute(items, { ...late, at: '2026-11-23T21:30:00Z' }).lines[0]!.rule).toBe('base');
  });

  it('follows daylight saving (Berlin UTC+2 in July)', () => {
    expect(ruleAt('2026-07-13T20:00:00Z')).toBe('Late'); // 22:00 Monday, summer time
    expect(ruleAt('2026-07-13T19:59:00Z')).toBe('base');
  });

  it('the programme day is the calendar day in the zone', () => {
    expect(programmeTime(new Date('2026-11-23T23:30:00Z'), 'Europe/Berlin').day).toBe('2026-11-24');
    expect(programmeTime(new Date('2026-11-23T23:30:00Z'), 'UTC').day).toBe('2026-11-23');
    expect(programmeTime(new Date('2026-11-24T03:00:00Z'), 'America/New_York')).toEqual({
      day: '2026-11-23',
      dayOfWeek: 1,
      minute: 22 * 60,
    });
  });
});

describe('minimum spend and caps', () => {
  it('minSpend: a receipt totalAmount below it earns nothing; exactly at it earns', () => {
    const setup = { percent: '10.00', advanced: { minSpend: 50 } };
    expect(outcome(compute([line('A', null, 30), line('B', null, 19.99)], setup))).toEqual([
      ['minSpend', 0],
      ['minSpend', 0],
    ]);
    expect(outcome(compute([line('A', null, 30), line('B', null, 20)], setup))).toEqual([
      ['base', 3],
      ['base', 2],
    ]);
  });

  it('maxPointsPerReceipt: credited in line order, the crossing line gets the rest, later lines 0', () => {
    const setup = { percent: '10.00', advanced: { maxPointsPerReceipt: 25 } };
    const r = compute(
      [line('A', null, 100), line('B', null, 100), line('C', null, 100), line('D', null, 0)],
      setup,
    );
    expect(outcome(r)).toEqual([
      ['base', 10],
      ['base', 10],
      ['cap', 5],
      ['base', 0],
    ]);
    expect(r.pointsCents).toBe(2500n);
    // A line that reaches the cap exactly is not cut.
    expect(outcome(compute([line('A', null, 250), line('B', null, 10)], setup))).toEqual([
      ['base', 25],
      ['cap', 0],
    ]);
  });

  it('maxPointsPerCardPerDay: what the card earned today counts; the smaller cap wins', () => {
    const setup = { percent: '10.00', advanced: { maxPointsPerCardPerDay: 30, maxPointsPerReceipt: 25 } };
    expect(compute([line('A', null, 1000)], setup).pointsCents).toBe(2500n);
    expect(compute([line('A', null, 1000)], { ...setup, earnedToday: 20_00n }).pointsCents).toBe(1000n);
    expect(outcome(compute([line('A', null, 1000)], { ...setup, earnedToday: 40_00n }))).toEqual([
      ['cap', 0],
    ]);
  });
});

describe('receipt math against the reference (property)', () => {
  it('every line: the same rule and the same points as the reference, for random receipts and rulesets', () => {
    fc.assert(
      fc.property(
        arbitraryItems,
        arbitraryConfig([POS_A, POS_B]),
        fc.uniqueArray(fc.constantFrom(...SKUS), { maxLength: 2 }),
        fc.record({
          posId: fc.constantFrom(POS_A, POS_B),
          day: fc.integer({ min: 1, max: 7 }),
          minute: fc.integer({ min: 0, max: 1439 }),
          earnedToday: fc.integer({ min: 0, max: 60_000 }),
        }),
        (items, config, excluded, where) => {
          const computed = computeReceipt(items, {
            ruleset: compileRuleset(config.percent.toFixed(2), {
              minSpend: config.minSpend,
              maxPointsPerReceipt: config.maxReceipt,
              maxPointsPerCardPerDay: config.maxDay,
              rules: config.rules,
            }),
            excluded: new Set(excluded),
            purchase: { posId: where.posId, dayOfWeek: where.day, minute: where.minute },
            earnedTodayCents: BigInt(where.earnedToday),
          });
          const expected = referencePoints(items, config, excluded, where);
          expect(computed.lines.map((l) => ({ rule: l.rule, cents: Number(l.bonusCents) }))).toEqual(
            expected,
          );
          expect(Number(computed.pointsCents)).toBe(expected.reduce((s, l) => s + l.cents, 0));
        },
      ),
      { numRuns: 500 },
    );
  });
});
