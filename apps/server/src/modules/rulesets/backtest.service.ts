import { type BacktestRequest, type BacktestResponse, DEFAULT_TIME_ZONE } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { centsNumber, parseCents } from '../../lib/money';
import { compileRuleset } from '../ledger/earning-rules';
import { programmeTime } from '../ledger/programme-clock';
import { computeReceipt, type ReceiptLineInput } from '../ledger/receipt-math';
import {
  type BacktestCursor,
  type BacktestReceipt,
  countBacktestAccounts,
  readBacktestBatch,
  readBacktestRuleset,
} from './backtest.repository';

/** Receipts per round trip: bounds memory (≈5 lines each) whatever the range. */
const BATCH_RECEIPTS = 4000;

/** A stored line as the batch carries it: sku, category, then quantity, price, discount, bonus as decimal text. */
type StoredLine = [string, string | null, string, string, string, string];

interface CategoryTotals {
  receipts: number;
  currentCents: bigint;
  candidateCents: bigint;
}

/**
 * POST /api/v1/rulesets/{id}/backtest: every stored receipt of [from, to) recomputed with ruleset {id} by the
 * accrual's own computation (`computeReceipt`), at the time and till it was bought, in time order so the
 * per-card-per-day cap sees what the card would have earned earlier that day under the candidate. Reads
 * only; keyset batches keep memory flat (the day's per-card totals are dropped when the programme day turns).
 */
export async function backtestRuleset(
  db: Db,
  id: string,
  range: BacktestRequest,
  batchReceipts = BATCH_RECEIPTS,
): Promise<BacktestResponse> {
  const stored = await readBacktestRuleset(db, id);
  if (!stored) throw new AppError('RULESET_NOT_FOUND');
  const ruleset = compileRuleset(stored.percent, stored.earning_rules, String(stored.version));
  const excluded = new Set(stored.excluded);
  const timeZone = stored.time_zone ?? DEFAULT_TIME_ZONE;
  const capsDays = ruleset.maxPerCardPerDayCents !== null;

  let receipts = 0;
  let currentCents = 0n;
  let candidateCents = 0n;
  const byCategory = new Map<string | null, CategoryTotals>();
  let day = '';
  let earnedToday = new Map<string, bigint>();

  const recompute = (receipt: BacktestReceipt) => {
    const lines = JSON.parse(receipt.lines ?? '[]') as StoredLine[];
    if (lines.length === 0) return;
    // As the accrual: the day cap counts the day of booking, the rules read the time of purchase.
    const booked = programmeTime(new Date(receipt.at_us / 1000), timeZone);
    if (booked.day !== day) {
      day = booked.day;
      earnedToday = new Map();
    }
    const time =
      receipt.bought_us === receipt.at_us
        ? booked
        : programmeTime(new Date(receipt.bought_us / 1000), timeZone);
    const items: ReceiptLineInput[] = lines.map(([sku, category, quantity, price, discount]) => ({
      sku,
      category,
      quantity: Number(quantity),
      price: Number(price),
      discount: Number(discount),
    }));
    const before = capsDays ? (earnedToday.get(receipt.card_number) ?? 0n) : 0n;
    const computed = computeReceipt(items, {
      ruleset,
      excluded,
      purchase: { posId: receipt.pos_id, dayOfWeek: time.dayOfWeek, minute: time.minute },
      earnedTodayCents: before,
    });
    if (capsDays) earnedToday.set(receipt.card_number, before + computed.pointsCents);
    receipts++;
    candidateCents += computed.pointsCents;
    const seen = new Set<string | null>();
    lines.forEach(([, category, , , , bonus], index) => {
      const current = parseCents(bonus);
      currentCents += current;
      let totals = byCategory.get(category);
      if (!totals) {
        totals = { receipts: 0, currentCents: 0n, candidateCents: 0n };
        byCategory.set(category, totals);
      }
      if (!seen.has(category)) {
        seen.add(category);
        totals.receipts++;
      }
      totals.currentCents += current;
      totals.candidateCents += computed.lines[index]!.bonusCents;
    });
  };

  let after: BacktestCursor | null = null;
  for (;;) {
    const batch = await readBacktestBatch(db, range, after, batchReceipts);
    if (batch.length === 0) break;
    for (const receipt of batch) recompute(receipt);
    const last = batch[batch.length - 1]!;
    after = { atUs: last.at_us, accrualId: last.accrual_id };
  }

  return {
    receipts,
    accounts: receipts === 0 ? 0 : await countBacktestAccounts(db, range),
    currentPoints: centsNumber(currentCents),
    candidatePoints: centsNumber(candidateCents),
    delta: centsNumber(candidateCents - currentCents),
    byCategory: [...byCategory]
      .map(([category, t]) => ({
        category,
        receipts: t.receipts,
        currentPoints: centsNumber(t.currentCents),
        candidatePoints: centsNumber(t.candidateCents),
      }))
      .sort(
        (a, b) => b.candidatePoints - a.candidatePoints || (a.category ?? '').localeCompare(b.category ?? ''),
      ),
  };
}
