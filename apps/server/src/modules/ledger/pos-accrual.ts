import type { Executor } from '../../db/executor';
import type { Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { type Cents, centsText, MAX_BALANCE_CENTS, milliText, parseCents } from '../../lib/money';
import { appendOperationEvents } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { type AccrualContext, insertAccrual, readAccrualContext } from './accrual.repository';
import type { PosRequestKey } from './ledger.repository';
import { type ComputedReceipt, computeReceipt, type ReceiptLineInput } from './receipt-math';

export interface AccrualRequest {
  cardNumber: string;
  receipt: { receiptId: string; items: ReceiptLineInput[] };
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
 * all come from here.
 */
export function decideAccrual(context: AccrualContext, items: ReceiptLineInput[]): DecidedAccrual {
  if (!context.card_id || !context.account_id) throw new AppError('CARD_NOT_FOUND');
  if (context.card_status !== 'active') throw new AppError('CARD_BLOCKED');
  if (context.ruleset_version === null || context.percent === null) throw new AppError('NO_ACTIVE_RULESET');
  const computed = computeReceipt(items, context.percent, new Set(context.excluded ?? []));
  const balanceAfter = parseCents(context.balance!) + computed.pointsCents;
  if (balanceAfter > MAX_BALANCE_CENTS) throw new AppError('BALANCE_LIMIT_EXCEEDED');
  return { computed, balanceAfter };
}

const skusOf = (items: ReceiptLineInput[]) => [...new Set(items.map((i) => i.sku))];

/** The accrual as the preview sees it: the same read (without the lock) and the same decision. */
export async function previewAccrualOn(db: Executor, request: AccrualRequest): Promise<DecidedAccrual> {
  const context = await readAccrualContext(db, {
    cardNumber: request.cardNumber,
    skus: skusOf(request.receipt.items),
    lock: false,
  });
  return decideAccrual(context, request.receipt.items);
}

export interface PosAccrual extends AccrualRequest {
  key: PosRequestKey;
  /** operations.id for the accrual. */
  rowId: string;
  /** The answer stored for the request and its replays (the caller serialises it). */
  answer: (decided: DecidedAccrual) => unknown;
  /** Told what was read when the accrual is refused, so the caller can record the refusal against it. */
  onContext?: (context: AccrualContext) => void;
}

/**
 * A POS accrual inside the caller's transaction: lock the account (with the ruleset in force) → decide
 * (`decideAccrual`) → write it all with the stored answer. Refusals are thrown before anything is written.
 */
export async function postAccrual(trx: Tx, a: PosAccrual): Promise<StoredRequest> {
  const context = await readAccrualContext(trx, {
    cardNumber: a.cardNumber,
    skus: skusOf(a.receipt.items),
    lock: true,
  });
  a.onContext?.(context);
  const decided = decideAccrual(context, a.receipt.items);
  const { computed } = decided;
  const stored = await insertAccrual(trx, {
    claim: { ...a.key, response: a.answer(decided) },
    rowId: a.rowId,
    accountId: context.account_id!,
    cardId: context.card_id!,
    cardNumber: a.cardNumber,
    rulesetVersion: context.ruleset_version!,
    points: centsText(computed.pointsCents),
    receipt: {
      receiptId: a.receipt.receiptId,
      totalAmount: centsText(computed.totalAmountCents),
      totalDiscount: centsText(computed.totalDiscountCents),
    },
    lines: computed.lines.map((l) => ({
      line_no: l.lineNo,
      sku: l.sku,
      category: l.category,
      quantity: milliText(l.quantityMilli),
      price: centsText(l.priceCents),
      discount: centsText(l.discountCents),
      line_total: centsText(l.lineTotalCents),
      bonus_points: centsText(l.bonusCents),
    })),
  });
  await appendOperationEvents(trx, 'points.accrued', [a.rowId]);
  return stored;
}
