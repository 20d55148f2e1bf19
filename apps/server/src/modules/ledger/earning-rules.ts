import type { EarningRule, RulesetAdvanced } from '@loyalty/contracts';
import { parseCents, toCents } from '../../lib/money';

/**
 * A ruleset as the receipt computation uses it (PROGRAMME-API §3), compiled once per ruleset: rulesets are
 * immutable, so the compiled form of a version is cached (`compileRuleset`); only the excluded SKUs, which
 * can change, come with each receipt.
 */
export interface CompiledRuleset {
  /** The base percent × 100 (basis points of a percent). */
  baseBasisPoints: bigint;
  minSpendCents: bigint | null;
  maxPerReceiptCents: bigint | null;
  maxPerCardPerDayCents: bigint | null;
  rules: CompiledRule[];
}

export interface CompiledRule {
  name: string;
  basisPoints: bigint;
  categories: ReadonlySet<string> | null;
  skus: ReadonlySet<string> | null;
  posIds: ReadonlySet<string> | null;
  days: ReadonlySet<number> | null;
  /** Minutes of the day, both included (22:00–23:59 runs to midnight). */
  fromMinute: number | null;
  toMinute: number | null;
}

/** Stored form of `rulesets.earning_rules` (the contract's validated config beyond `percent`). */
export type StoredEarningRules = Partial<RulesetAdvanced> | null;

const setOf = <T>(values: readonly T[] | undefined) => (values && values.length > 0 ? new Set(values) : null);
const minuteOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const centsOrNull = (value: number | null | undefined) =>
  value === null || value === undefined ? null : toCents(value);

function compileRule(rule: EarningRule): CompiledRule {
  return {
    name: rule.name,
    basisPoints: toCents(rule.percent),
    categories: setOf(rule.categories),
    skus: setOf(rule.skus),
    posIds: setOf(rule.posIds),
    days: setOf(rule.daysOfWeek),
    fromMinute: rule.hours ? minuteOf(rule.hours.from) : null,
    toMinute: rule.hours ? minuteOf(rule.hours.to) : null,
  };
}

const compiled = new Map<string, CompiledRuleset>();

/**
 * The compiled ruleset; `key` (the ruleset's version) caches it, since a ruleset never changes once created.
 * The cache is bounded: a process sees a handful of rulesets, a backtest one more.
 */
/**
 * Empties the cache. Tests only: vitest runs several files in one process (test/per-file-setup.ts), each on its
 * own database, where one version can be a different ruleset.
 */
export function forgetCompiledRulesets(): void {
  compiled.clear();
}

export function compileRuleset(percent: string, stored: StoredEarningRules, key?: string): CompiledRuleset {
  const hit = key === undefined ? undefined : compiled.get(key);
  if (hit) return hit;
  const result: CompiledRuleset = {
    baseBasisPoints: parseCents(percent),
    minSpendCents: centsOrNull(stored?.minSpend),
    maxPerReceiptCents: centsOrNull(stored?.maxPointsPerReceipt),
    maxPerCardPerDayCents: centsOrNull(stored?.maxPointsPerCardPerDay),
    rules: (stored?.rules ?? []).map(compileRule),
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

/** The rules whose receipt-wide conditions (store, day, hour) hold for this purchase, in their order. */
export function rulesForPurchase(rules: readonly CompiledRule[], purchase: Purchase): CompiledRule[] {
  return rules.filter(
    (r) =>
      (r.posIds === null || r.posIds.has(purchase.posId)) &&
      (r.days === null || r.days.has(purchase.dayOfWeek)) &&
      (r.fromMinute === null || (purchase.minute >= r.fromMinute && purchase.minute <= r.toMinute!)),
  );
}

/**
 * The rule a line earns by: the highest percent among the rules whose every condition matches it (the first
 * listed on a tie), or null for the base. `candidates` already passed the purchase's conditions.
 */
export function ruleForLine(
  candidates: readonly CompiledRule[],
  line: { sku: string; category: string | null },
): CompiledRule | null {
  let best: CompiledRule | null = null;
  for (const rule of candidates) {
    if (rule.skus !== null && !rule.skus.has(line.sku)) continue;
    if (rule.categories !== null && (line.category === null || !rule.categories.has(line.category))) continue;
    if (best === null || rule.basisPoints > best.basisPoints) best = rule;
  }
  return best;
}
