import { type BacktestRequest, type BacktestResponse, DEFAULT_TIME_ZONE } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { AppError } from '../../lib/app-error';
import { centsNumber, parseCents } from '../../lib/money';
import { compileRuleset } from '../ledger/earning-rules';
import { programmeTime } from '../ledger/programme-clock';
import { computeReceipt, type ReceiptLineInput } from '../ledger/receipt-math';
import {
  type BacktestCursor,
  type BacktestLine,
  countBacktestAccounts,
  readBacktestBatch,
  readBacktestRuleset,
} from './backtest.repository';

/** Receipts per round trip: bounds memory (≈5 lines each) whatever the range. */
const BATCH_RECEIPTS = 4000;

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

  const recompute = (lines: BacktestLine[]) => {
    const first = lines[0]!;
    const time = programmeTime(new Date(first.at_us / 1000), timeZone);
    if (time.day !== day) {
      day = time.day;
      earnedToday = new Map();
    }
    const items: ReceiptLineInput[] = lines.map((l) => ({
      sku: l.sku,
      category: l.category,
      quantity: Number(l.quantity),
      price: Number(l.price),
      discount: Number(l.discount),
    }));
    const before = capsDays ? (earnedToday.get(first.card_number) ?? 0n) : 0n;
    const computed = computeReceipt(items, {
      ruleset,
      excluded,
      purchase: { posId: first.pos_id, dayOfWeek: time.dayOfWeek, minute: time.minute },
      earnedTodayCents: before,
    });
    if (capsDays) earnedToday.set(first.card_number, before + computed.pointsCents);
    receipts++;
    candidateCents += computed.pointsCents;
    const seen = new Set<string | null>();
    lines.forEach((line, index) => {
      const current = parseCents(line.bonus_points);
      currentCents += current;
      let totals = byCategory.get(line.category);
      if (!totals) {
        totals = { receipts: 0, currentCents: 0n, candidateCents: 0n };
        byCategory.set(line.category, totals);
      }
      if (!seen.has(line.category)) {
        seen.add(line.category);
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
    let start = 0;
    for (let i = 1; i <= batch.length; i++) {
      if (i === batch.length || batch[i]!.accrual_id !== batch[start]!.accrual_id) {
        recompute(batch.slice(start, i));
        start = i;
      }
    }
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
