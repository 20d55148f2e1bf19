import { type BacktestRequest, type BacktestResponse, DEFAULT_TIME_ZONE } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { forEachSlice } from '../../lib/event-loop-turns';
import { CentsSum, centsNumber } from '../../lib/money';
import { compileRuleset } from '../ledger/earning-rules';
import { programmeClock } from '../ledger/programme-clock';
import { earnLines, lineTotalCents, newEarningLines } from '../ledger/receipt-math';
import {
  type BacktestReceipt,
  countBacktestAccounts,
  programmeDayStart,
  readBacktestRuleset,
} from './backtest.repository';
import { backtestBatches } from './backtest-batches';
import { FieldReader } from './backtest-fields';

/**
 * Receipts per round trip: bounds memory (≈5 lines each, a few MB of text) whatever the range, and is large
 * enough that a round trip's fixed cost vanishes.
 */
export const BACKTEST_BATCH_RECEIPTS = 20_000;

/**
 * Receipts computed between two turns of the event loop: a batch is ≈ 0.1–0.2 s of JavaScript, which every
 * request on this server (the tills' included) would otherwise wait out; a slice is a few milliseconds.
 */
const SLICE_RECEIPTS = 1000;

/** How the walk reads and computes (the defaults above; tests and the bench set them). */
export interface BacktestWalk {
  batchReceipts?: number;
  /** Reads in flight at once (backtestBatches). */
  inFlight?: number;
  sliceReceipts?: number;
}

interface CategoryTotals {
  receipts: number;
  /** The last receipt (its ordinal) counted in `receipts`: a receipt counts once per category. */
  lastReceipt: number;
  current: CentsSum;
  candidate: CentsSum;
}

/**
 * POST /api/v1/rulesets/{id}/backtest: every stored receipt of [from, to) recomputed with ruleset {id} by the
 * accrual's own computation (`earnLines`, which `computeReceipt` runs for the accrual and the preview), at the
 * time and till it was bought, in time order so the per-card-per-day cap sees what the card would have earned
 * earlier that day under the candidate, from the start of the range's first programme day (the receipts
 * before `from` count towards the card's day, as the live accrual counted them, and are not reported).
 * Reads only; keyset batches keep memory flat (the day's per-card totals are dropped when the programme
 * day turns), and the next batches are read while this one is computed.
 */
export async function backtestRuleset(
  db: Db,
  id: string,
  range: BacktestRequest,
  walkOptions: BacktestWalk = {},
): Promise<BacktestResponse> {
  const { batchReceipts = BACKTEST_BATCH_RECEIPTS, inFlight, sliceReceipts = SLICE_RECEIPTS } = walkOptions;
  const stored = await readBacktestRuleset(db, id);
  if (!stored) throw new AppError('RULESET_NOT_FOUND');
  const ruleset = compileRuleset(stored.percent, stored.earning_rules, String(stored.version));
  const excluded = new Set(stored.excluded);
  const timeZone = stored.time_zone ?? DEFAULT_TIME_ZONE;
  const bookedClock = programmeClock(timeZone);
  const boughtClock = programmeClock(timeZone);
  const capsDays = ruleset.maxPerCardPerDayCents !== null;
  // With a day cap the walk starts where the programme day of `from` begins: what the card earned that
  // day before `from` is what the accrual's cap counted for the first receipts of the range.
  let walk = range;
  let fromUs = Number.NEGATIVE_INFINITY;
  if (capsDays) {
    const first = await programmeDayStart(db, range.from, timeZone);
    walk = { from: first.dayStart, to: range.to };
    fromUs = Number(first.atUs);
  }

  let receipts = 0;
  const current = new CentsSum();
  const candidate = new CentsSum();
  const byCategory = new Map<string | null, CategoryTotals>();
  const lines = newEarningLines();
  const currentCents: number[] = [];
  let day = '';
  let earnedToday = new Map<string, number>();

  /** Recomputes receipts of a batch (readBacktestBatch), in time order. */
  const recomputeBatch = (batch: readonly BacktestReceipt[]) => {
    for (const receipt of batch) {
      if (receipt.lines === null) continue;
      const f = new FieldReader(receipt.lines);
      const atUs = Number(receipt.at_us);
      const boughtUs = receipt.bought_us === null ? atUs : Number(receipt.bought_us);
      const card = receipt.card_number;
      let totalAmountCents = 0;
      let count = 0;
      for (; !f.done; count++) {
        lines.skus[count] = f.text()!;
        lines.categories[count] = f.text();
        lines.totalsCents[count] = lineTotalCents(f.scaled(3), f.scaled(2), f.scaled(2));
        currentCents[count] = f.scaled(2);
        totalAmountCents += lines.totalsCents[count]!;
      }
      lines.count = count;
      // As the accrual: the day cap counts the day of booking, the rules read the time of purchase.
      const booked = bookedClock(atUs / 1000);
      if (booked.day !== day) {
        day = booked.day;
        earnedToday = new Map();
      }
      const time = boughtUs === atUs ? booked : boughtClock(boughtUs / 1000);
      const before = capsDays ? (earnedToday.get(card) ?? 0) : 0;
      const points = earnLines(lines, totalAmountCents, {
        ruleset,
        excluded,
        purchase: { posId: receipt.pos_id, dayOfWeek: time.dayOfWeek, minute: time.minute },
        earnedTodayCents: before,
      });
      if (capsDays) earnedToday.set(card, before + points);
      if (atUs < fromUs) continue; // before the range: it only counts towards the card's day
      receipts++;
      candidate.add(points);
      for (let k = 0; k < count; k++) {
        const category = lines.categories[k] ?? null;
        let totals = byCategory.get(category);
        if (!totals) {
          totals = { receipts: 0, lastReceipt: 0, current: new CentsSum(), candidate: new CentsSum() };
          byCategory.set(category, totals);
        }
        if (totals.lastReceipt !== receipts) {
          totals.lastReceipt = receipts;
          totals.receipts++;
        }
        current.add(currentCents[k]!);
        totals.current.add(currentCents[k]!);
        totals.candidate.add(lines.bonusCents[k]!);
      }
    }
  };

  // On PostgreSQL the accounts are counted on another connection while the walk goes on.
  const accounts = countBacktestAccounts(db, range);
  accounts.catch(() => undefined);
  // The reads run ahead of the computation (backtestBatches): PostgreSQL reads the next batches meanwhile.
  for await (const batch of backtestBatches(db, walk, batchReceipts, inFlight)) {
    await forEachSlice(batch.receipts, sliceReceipts, recomputeBatch);
  }

  const currentTotal = current.value;
  const candidateTotal = candidate.value;
  return {
    receipts,
    accounts: receipts === 0 ? 0 : await accounts,
    currentPoints: centsNumber(currentTotal),
    candidatePoints: centsNumber(candidateTotal),
    delta: centsNumber(candidateTotal - currentTotal),
    byCategory: [...byCategory]
      .map(([category, t]) => ({
        category,
        receipts: t.receipts,
        currentPoints: centsNumber(t.current.value),
        candidatePoints: centsNumber(t.candidate.value),
      }))
      .sort(
        (a, b) => b.candidatePoints - a.candidatePoints || (a.category ?? '').localeCompare(b.category ?? ''),
      ),
  };
}
