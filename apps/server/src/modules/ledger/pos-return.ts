import type { Tx } from '../../db/transaction';
import { type Cents, centsNumber, centsText, parseCents } from '../../lib/money';
import { appendOperationEvents } from '../events/emit';
import type { StoredRequest } from '../pos/idempotency';
import { expireHoldsIn } from './expire-holds';
import { lockAccountForPosting, type PosRequestKey } from './ledger.repository';
import { planReturn, returnDeduction } from './return-plan';
import { applyReturn, lockReceiptLines, type ReturnableAccrual, readReturnLots } from './returns.repository';

export interface PosReturn {
  key: PosRequestKey;
  /** The accrual being returned (found by the caller: completed, with a receipt, made by this POS). */
  original: ReturnableAccrual;
  originalOperationId: string;
  /** What comes back; all that is left when absent. */
  items?: Array<{ sku: string; quantity: number }>;
  /** The answer stored for the request and its replays (the caller serialises it). */
  answer: (made: { taken: Cents; balanceAfter: Cents }) => unknown;
}

/**
 * A POS return inside the caller's transaction: lock the receipt's lines and the account → decide
 * (`planReturn`: which quantities and points; `returnDeduction`: how much the account can give) → write it
 * all with the stored answer. Refusals (RETURN_NOT_ALLOWED) are thrown before anything is written.
 */
export async function postReturn(trx: Tx, r: PosReturn): Promise<StoredRequest> {
  const plan = planReturn(await lockReceiptLines(trx, r.original.id), r.items);
  // Lapsed holds no longer count as held (issue 15.5): void them before what is available is read.
  await expireHoldsIn(trx, { accountId: r.original.account_id });
  const account = (await lockAccountForPosting(trx, r.original.account_id))!;
  const lots = await readReturnLots(trx, r.original.account_id, r.original.id);
  const { taken, shortfall } = returnDeduction(plan.pointsCents, account, lots);
  const stored = await applyReturn(trx, {
    claim: { ...r.key, response: r.answer({ taken, balanceAfter: parseCents(account.balance) - taken }) },
    original: r.original,
    lines: plan.lines,
    taken: centsText(taken),
    meta: {
      reason: `Return of receipt ${r.original.receipt_id}`,
      receipt: r.original.receipt_id,
      returnOf: r.originalOperationId,
      earnedPoints: centsNumber(plan.pointsCents),
      ...(shortfall > 0n ? { shortfall: centsNumber(shortfall) } : {}),
    },
  });
  await appendOperationEvents(trx, 'points.returned', { operationId: r.key.operationId });
  return stored;
}
