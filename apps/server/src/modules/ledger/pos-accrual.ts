import { DEFAULT_TIME_ZONE } from '@loyalty/contracts';
import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { type Cents, centsText, MAX_BALANCE_CENTS, milliText, parseCents } from '../../lib/money';
import { timeOrderedUuid } from '../../lib/time-ordered-uuid';
import type { StoredRequest } from '../pos/idempotency';
import {
  type AccrualContext,
  type AccrualWrite,
  type EarnedTodayOf,
  insertAccrual,
  readAccrualContext,
  readEarnedToday,
} from './accrual.repository';
import { compileRuleset } from './earning-rules';
import type { PosRequestKey } from './ledger.repository';
import { programmeTime } from './programme-clock';
import { type ComputedReceipt, computeReceipt, type ReceiptLineInput } from './receipt-math';

export interface AccrualRequest {
  /** The till's POS key (rules may target stores). */
  posId: string;
  cardNumber: string;
  /** `purchasedAt`: an offline till's purchase time, already validated (not future, ≤ 30 days old). */
  receipt: { receiptId: string; items: ReceiptLineInput[]; purchasedAt?: string | undefined };
}

/** What an accrual decided: the receipt with its points, and the balance they take the account to. */
export interface DecidedAccrual {
  computed: ComputedReceipt;
  balanceAfter: Cents;
}

/**
 * The accrual's rule over what was read: CARD_NOT_FOUND, CARD_BLOCKED, NO_ACTIVE_RULESET, then the
 * receipt's points (`computeReceipt`) and BALANCE_LIMIT_EXCEEDED when they would take the balance past
 * what its column stores (issue 15.2), in that order. The write, the preview and the recorded refusal
 * all come from here. `earnedToday` is what the card earned today (only read when the ruleset caps it).
 */
export function decideAccrual(
  context: AccrualContext,
  request: Pick<AccrualRequest, 'posId'> & { items: ReceiptLineInput[]; purchasedAt?: string | null },
  earnedToday = '0',
): DecidedAccrual {
  if (!context.card_id || !context.account_id) throw new AppError('CARD_NOT_FOUND');
  if (context.card_status !== 'active') throw new AppError('CARD_BLOCKED');
  if (context.ruleset_version === null || context.percent === null) throw new AppError('NO_ACTIVE_RULESET');
  // Rules' days and hours read the purchase's time (an offline till's purchasedAt, else now); the day cap
  // counts the day the points are booked.
  const purchased = request.purchasedAt ? new Date(request.purchasedAt) : context.at;
  const time = programmeTime(purchased, context.time_zone ?? DEFAULT_TIME_ZONE);
  const computed = computeReceipt(request.items, {
    ruleset: compileRuleset(context.percent, context.earning_rules, String(context.ruleset_version)),
    excluded: new Set(context.excluded ?? []),
    purchase: { posId: request.posId, dayOfWeek: time.dayOfWeek, minute: time.minute },
    earnedTodayCents: parseCents(earnedToday),
  });
  const balanceAfter = parseCents(context.balance!) + computed.pointsCents;
  if (balanceAfter > MAX_BALANCE_CENTS) throw new AppError('BALANCE_LIMIT_EXCEEDED');
  return { computed, balanceAfter };
}

/**
 * What the card's earnings today are read for when the ruleset in force caps them per day, else null
 * (nothing to read: the decision refuses first, or there is no cap).
 */
export function earnedTodayOf(context: AccrualContext): EarnedTodayOf | null {
  if (!context.account_id || !context.card_id || context.percent === null) return null;
  if (context.earning_rules?.maxPointsPerCardPerDay == null) return null;
  return {
    accountId: context.account_id,
    cardId: context.card_id,
    timeZone: context.time_zone ?? DEFAULT_TIME_ZONE,
  };
}

/**
 * What the card earned today when the ruleset in force caps it per day, else nothing to read. Under the
 * account's lock (the accrual) no other accrual of the card can commit until this one does, so the cap
 * holds however many tills accrue at once.
 */
async function earnedTodayFor(db: Executor, context: AccrualContext): Promise<string> {
  const of = earnedTodayOf(context);
  return of ? readEarnedToday(db, of) : '0';
}

export const skusOf = (items: ReceiptLineInput[]) => [...new Set(items.map((i) => i.sku))];

/** The accrual as the preview sees it: the same read (without the lock) and the same decision. */
export async function previewAccrualOn(db: Executor, request: AccrualRequest): Promise<DecidedAccrual> {
  const context = await readAccrualContext(db, {
    cardNumber: request.cardNumber,
    posId: request.posId,
    skus: skusOf(request.receipt.items),
    lock: false,
  });
  const items = request.receipt.items;
  const { purchasedAt } = request.receipt;
  return decideAccrual(
    context,
    { posId: request.posId, items, purchasedAt },
    await earnedTodayFor(db, context),
  );
}

export interface PosAccrual extends AccrualRequest {
  key: PosRequestKey;
  /** The answer stored for the request and its replays (the caller serialises it). */
  answer: (decided: DecidedAccrual) => unknown;
  /** Told what was read when the accrual is refused, so the caller can record the refusal against it. */
  onContext?: (context: AccrualContext) => void;
}

/**
 * A POS accrual inside the caller's transaction: lock the account (with the ruleset in force) → decide
 * (`decideAccrual`) → write it all with the stored answer. Refusals are thrown before anything is written.
 * Under load, accruals of many cards are written together instead (`accrual-batch.ts`), with the same
 * read, decision and write.
 */
export async function postAccrual(trx: Tx, a: PosAccrual): Promise<StoredRequest> {
  const context = await readAccrualContext(trx, {
    cardNumber: a.cardNumber,
    posId: a.posId,
    skus: skusOf(a.receipt.items),
    lock: true,
  });
  a.onContext?.(context);
  const items = a.receipt.items;
  const { purchasedAt } = a.receipt;
  const decided = decideAccrual(
    context,
    { posId: a.posId, items, purchasedAt },
    await earnedTodayFor(trx, context),
  );
  return insertAccrual(trx, accrualWrite(a, context, decided));
}

/** What persisting a decided accrual writes: its claim with the answer, operation, receipt and lines. */
export function accrualWrite(a: PosAccrual, context: AccrualContext, decided: DecidedAccrual): AccrualWrite {
  const { computed } = decided;
  return {
    claim: { ...a.key, response: a.answer(decided) },
    operation: {
      // Drawn as it is decided, time-ordered: a backtest meets the receipts of one transaction (a card's group
      // commit, which may decide a request that came later before one a set batch left to run alone) in this
      // order, the order their day cap was decided in.
      id: timeOrderedUuid(),
      operation_id: a.key.operationId,
      type: 'accrual',
      points: centsText(computed.pointsCents),
      status: 'completed',
      account_id: context.account_id!,
      card_number: a.cardNumber,
      pos_id: a.key.posId,
      pos_name: context.pos_name,
      pos_address: context.pos_address,
      created_at: context.at,
      meta: { receipt: a.receipt.receiptId },
    },
    cardId: context.card_id!,
    rulesetVersion: context.ruleset_version!,
    receipt: {
      receiptId: a.receipt.receiptId,
      totalAmount: centsText(computed.totalAmountCents),
      totalDiscount: centsText(computed.totalDiscountCents),
    },
    purchasedAt: a.receipt.purchasedAt ?? null,
    lines: computed.lines.map((l) => ({
      line_no: l.lineNo,
      sku: l.sku,
      category: l.category,
      quantity: milliText(l.quantityMilli),
      price: centsText(l.priceCents),
      discount: centsText(l.discountCents),
      line_total: centsText(l.lineTotalCents),
      bonus_points: centsText(l.bonusCents),
      rule: l.rule,
    })),
  };
}
