import type { EarningRule, RulesetAdvanced } from '@loyalty/contracts';
import { centsOf, parseCents } from '../../lib/money';

/**
 * A ruleset as the receipt computation uses it (PROGRAMME-API §3), compiled once per ruleset: rulesets are
 * immutable, so the compiled form of a version is cached (`compileRuleset`); only the excluded SKUs, which
 * can change, come with each receipt. Amounts are plain-number cents: `mulDivRound` keeps them exact, and a
 * backtest runs this for millions of lines.
 */
export interface CompiledRuleset {
  /** The base percent × 100 (basis points of a percent). */
  baseBasisPoints: number;
  minSpendCents: number | null;
  maxPerReceiptCents: number | null;
  maxPerCardPerDayCents: number | null;
  rules: CompiledRule[];
  /** What `ruleForLine` works out once per SKU and category (see there). */
  lineMemo: Map<string, Map<string | null, readonly CompiledRule[]>>;
  lineMemoSize: number;
}

export interface CompiledRule {
  name: string;
  basisPoints: number;
  categories: ReadonlySet<string> | null;
  skus: ReadonlySet<string> | null;
  posIds: ReadonlySet<string> | null;
  /** Bit d set for ISO day d (1 = Monday … 7 = Sunday); null when the rule runs every day. */
  dayBits: number | null;
  /**
   * Minutes of the day, both included (22:00–23:59 runs to midnight); a from after to runs past midnight
   * (22:00–01:59: from 22:00 to 01:59 the next morning, each minute read on its own day).
   */
  fromMinute: number | null;
  toMinute: number | null;
}

/** Stored form of `rulesets.earning_rules` (the contract's validated config beyond `percent`). */
export type StoredEarningRules = Partial<RulesetAdvanced> | null;

const setOf = <T>(values: readonly T[] | undefined) => (values && values.length > 0 ? new Set(values) : null);
const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const centsOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : centsOf(value);
const dayBitsOf = (days: readonly number[] | undefined) =>
  days && days.length > 0 ? days.reduce((bits, day) => bits | (1 << day), 0) : null;

function compileRule(rule: EarningRule): CompiledRule {
  return {
    name: rule.name,
    basisPoints: centsOf(rule.percent),
    categories: setOf(rule.categories),
    skus: setOf(rule.skus),
    posIds: setOf(rule.posIds),
    dayBits: dayBitsOf(rule.daysOfWeek),
    fromMinute: rule.hours ? minuteOf(rule.hours.from) : null,
    toMinute: rule.hours ? minuteOf(rule.hours.to) : null,
  };
}

const compiled = new Map<string, CompiledRuleset>();

/**
 * Empties the cache. Tests only: vitest runs several files in one process (test/per-file-setup.ts), each on its
 * own database, where one version can be a different ruleset.
 */
export function forgetCompiledRulesets(): void {
  compiled.clear();
}

/**
 * The compiled ruleset; `key` (the ruleset's version) caches it, since a ruleset never changes once created.
 * The cache is bounded: a process sees a handful of rulesets, a backtest one more.
 */
export function compileRuleset(percent: string, stored: StoredEarningRules, key?: string): CompiledRuleset {
  const hit = key === undefined ? undefined : compiled.get(key);
  if (hit) return hit;
  const result: CompiledRuleset = {
    baseBasisPoints: Number(parseCents(percent)),
    minSpendCents: centsOrNull(stored?.minSpend),
    maxPerReceiptCents: centsOrNull(stored?.maxPointsPerReceipt),
    maxPerCardPerDayCents: centsOrNull(stored?.maxPointsPerCardPerDay),
    rules: (stored?.rules ?? []).map(compileRule),
    lineMemo: new Map(),
    lineMemoSize: 0,
  };
  if (key !== undefined) {
    if (compiled.size >= 256) compiled.clear();
    compiled.set(key, result);
  }
  return result;
}

/** Where and when a receipt was bought, as the rules' conditions see it. */
export interface Purchase {
  posId: string;
  /** ISO day of the week in the programme time zone, 1 = Monday … 7 = Sunday. */
  dayOfWeek: number;
  /** Minute of the day in the programme time zone, 0 … 1439. */
  minute: number;
}

/** Whether the rule's receipt-wide conditions (store, day, hour) hold for this purchase. */
function holdsFor(rule: CompiledRule, purchase: Purchase): boolean {
  return (
    (rule.posIds === null || rule.posIds.has(purchase.posId)) &&
    (rule.dayBits === null || (rule.dayBits & (1 << purchase.dayOfWeek)) !== 0) &&
    (rule.fromMinute === null || withinHours(purchase.minute, rule.fromMinute, rule.toMinute!))
  );
}

function withinHours(minute: number, from: number, to: number): boolean {
  return from <= to ? minute >= from && minute <= to : minute >= from || minute <= to;
}

/** Whether the rule's line conditions (SKU, category) hold for this line. */
function matchesLine(rule: CompiledRule, sku: string, category: string | null): boolean {
  return (
    (rule.skus === null || rule.skus.has(sku)) &&
    (rule.categories === null || (category !== null && rule.categories.has(category)))
  );
}

/** Distinct SKU and category pairs remembered per ruleset before the memo starts again. */
const LINE_MEMO_LIMIT = 50_000;

/**
 * The rules whose SKU and category conditions hold for a line, best first: the highest percent, the first
 * listed on a tie. They depend on the line alone, so they are worked out once per SKU and category and
 * remembered with the compiled ruleset; a receipt then only checks their store, day and hour.
 */
function rulesForLine(
  ruleset: CompiledRuleset,
  sku: string,
  category: string | null,
): readonly CompiledRule[] {
  let bySku = ruleset.lineMemo.get(sku);
  const hit = bySku?.get(category);
  if (hit) return hit;
  const ranked = ruleset.rules
    .filter((rule) => matchesLine(rule, sku, category))
    // Array.prototype.sort is stable: a tie keeps the listed order.
    .sort((a, b) => b.basisPoints - a.basisPoints);
  if (ruleset.lineMemoSize >= LINE_MEMO_LIMIT) {
    ruleset.lineMemo.clear();
    ruleset.lineMemoSize = 0;
    bySku = undefined;
  }
  if (!bySku) {
    bySku = new Map();
    ruleset.lineMemo.set(sku, bySku);
  }
  bySku.set(category, ranked);
  ruleset.lineMemoSize++;
  return ranked;
}

/**
 * The rule a line earns by: the highest percent among the rules whose every condition matches it (the first
 * listed on a tie), or null for the base.
 */
export function ruleForLine(
  ruleset: CompiledRuleset,
  purchase: Purchase,
  sku: string,
  category: string | null,
): CompiledRule | null {
  if (ruleset.rules.length === 0) return null;
  for (const rule of rulesForLine(ruleset, sku, category)) {
    if (holdsFor(rule, purchase)) return rule;
  }
  return null;
}
