import {
  type AccrualPreviewResponse,
  type AccrualResponse,
  PURCHASED_AT_TOO_OLD,
  purchasedTooLongAgo,
} from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { cardKey, posTransaction } from '../../db/group-commit';
import { AppError } from '../../lib/app-error';
import { centsNumber } from '../../lib/money';
import type { AccrualContext } from '../ledger/accrual.repository';
import { accrualBatches } from '../ledger/accrual-batch';
import { type AccrualRequest, type DecidedAccrual, previewAccrualOn } from '../ledger/pos-accrual';
import { lineToWire } from '../ledger/receipt-math';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { answerWrite } from './failures';
import {
  type PosOutcome,
  resolveExisting,
  type StoredRequest,
  successStatus,
  writeContext,
} from './idempotency';
import { findRequest, waitForCardWriters } from './pos.repository';

interface AccrualInput extends Omit<AccrualRequest, 'posId'> {
  operationId: string;
}

/** The accrual's answer (and, with `operationId` null, the preview's) from what the ledger decided. */
function accrualAnswer<Id extends string | null>(
  operationId: Id,
  receiptId: string,
  { computed, balanceAfter }: DecidedAccrual,
) {
  return {
    operationId,
    points: centsNumber(computed.pointsCents),
    balance: centsNumber(balanceAfter),
    receipt: {
      receiptId,
      totalAmount: centsNumber(computed.totalAmountCents),
      totalDiscount: centsNumber(computed.totalDiscountCents),
      items: computed.lines.map(lineToWire),
    },
  } satisfies Omit<AccrualResponse, 'operationId'> & { operationId: Id };
}

/** An offline purchase older than the contract allows: the 400 its schema check would give, naming the field. */
function purchaseTooOld(): AppError {
  return new AppError('VALIDATION_ERROR', `receipt.purchasedAt: ${PURCHASED_AT_TOO_OLD}`, [
    { field: 'receipt.purchasedAt', message: PURCHASED_AT_TOO_OLD },
  ]);
}

/**
 * The stored request of an earlier attempt of this accrual, once an attempt queued for the card on this
 * server or holding its account (on any server) has finished: its answer is not committed until then, and a
 * retry refused meanwhile would tell the till "invalid" about points it is being given. It waits in the
 * card's group commit, behind the card's writes and on their one connection, not on a connection of its own.
 * (An attempt still on its way to the account's lock in a batch across cards, or on another server, is not
 * seen; the till's retry comes seconds after its first attempt, which by then holds the lock if it has not
 * finished.)
 */
async function firstAttempt(db: Db, input: AccrualInput): Promise<StoredRequest | undefined> {
  return posTransaction(db, cardKey(input.cardNumber), async (trx) => {
    await waitForCardWriters(trx, input.cardNumber);
    return findRequest(trx, input.operationId);
  });
}

/**
 * POST /pos/api/v1/accruals: the ledger's `postAccrual` (lock → decide → write). This service keeps the
 * POS envelope (`answerWrite`): a replay of the operationId, and a refusal recorded as a failed operation.
 */
export async function accrue(
  db: Db,
  pos: PosIdentity,
  input: AccrualInput,
  requestId: string,
): Promise<PosOutcome> {
  const ctx = writeContext('accrual', pos.id, '', input, requestId);
  if (input.receipt.purchasedAt && purchasedTooLongAgo(input.receipt.purchasedAt)) {
    // A purchase ages while its till retries: the retry of a request accepted when the purchase was younger
    // than 30 days gets its first answer again (POS-API "Idempotency"); only a new request is refused, like
    // any invalid one, without taking the operationId.
    const earlier = await firstAttempt(db, input);
    if (earlier) return resolveExisting(earlier, ctx);
    throw purchaseTooOld();
  }
  let context: AccrualContext | undefined;
  return answerWrite(
    db,
    ctx,
    () =>
      accrualBatches.transaction(db, {
        key: {
          operationId: input.operationId,
          posId: pos.id,
          hash: ctx.hash,
          status: successStatus.accrual,
        },
        posId: pos.id,
        cardNumber: input.cardNumber,
        receipt: input.receipt,
        answer: (decided) => accrualAnswer(input.operationId, input.receipt.receiptId, decided),
        onContext: (read) => {
          context = read;
        },
      }),
    () => {
      const read = context as AccrualContext | undefined;
      return {
        points: '0',
        accountId: read?.account_id,
        cardId: read?.card_id,
        cardNumber: input.cardNumber,
        meta: { receipt: input.receipt.receiptId },
      };
    },
  );
}

/** POST /pos/api/v1/accruals/preview: the same decision, nothing written. */
export async function previewAccrual(
  db: Db,
  pos: PosIdentity,
  input: Omit<AccrualRequest, 'posId'> & { operationId?: string },
): Promise<AccrualPreviewResponse> {
  if (input.receipt.purchasedAt && purchasedTooLongAgo(input.receipt.purchasedAt)) throw purchaseTooOld();
  const decided = await previewAccrualOn(db, { ...input, posId: pos.id });
  return accrualAnswer(input.operationId ?? null, input.receipt.receiptId, decided);
}
