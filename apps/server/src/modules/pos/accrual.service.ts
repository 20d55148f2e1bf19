import { randomUUID } from 'node:crypto';
import type { AccrualPreviewResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isUniqueViolation } from '../../db/sql-errors';
import { retryStatement } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { centsNumber, MAX_BALANCE_CENTS, parseCents } from '../../lib/money';
import type { PosIdentity } from '../pos-keys/pos-keys.repository';
import { type AccrualContextRow, insertAccrual, readAccrualContext } from './accrual.repository';
import { recordFailure } from './failures';
import {
  firstAnswer,
  type PosOutcome,
  resolveExisting,
  type WriteContext,
  writeContext,
} from './idempotency';
import { findRequest } from './pos.repository';
import {
  type ComputedReceipt,
  computeReceipt,
  lineToWire,
  type ReceiptLineInput,
  receiptTotals,
} from './receipt-math';

interface AccrualInput {
  operationId: string;
  cardNumber: string;
  receipt: { receiptId: string; items: ReceiptLineInput[] };
}

/** CARD_NOT_FOUND, CARD_BLOCKED, NO_ACTIVE_RULESET, in that order; null when the accrual can go ahead. */
function refusal(context: AccrualContextRow): AppError | null {
  if (!context.card_id || !context.account_id) return new AppError('CARD_NOT_FOUND');
  if (context.card_status !== 'active') return new AppError('CARD_BLOCKED');
  if (context.ruleset_version === null || context.percent === null) return new AppError('NO_ACTIVE_RULESET');
  return null;
}

function compute(context: AccrualContextRow, items: ReceiptLineInput[]): ComputedReceipt {
  return computeReceipt(items, context.percent!, new Set(context.excluded ?? []));
}

/** Issue 15.2: a credit that would take the balance past what its column stores is refused, not a 500. */
function overLimit(context: AccrualContextRow, computed: ComputedReceipt): AppError | null {
  if (parseCents(context.balance!) + computed.pointsCents <= MAX_BALANCE_CENTS) return null;
  return new AppError('BALANCE_LIMIT_EXCEEDED');
}

function wireBody(operationId: string | null, receiptId: string, computed: ComputedReceipt) {
  return {
    operationId,
    points: centsNumber(computed.pointsCents),
    receipt: {
      receiptId,
      totalAmount: centsNumber(computed.totalAmountCents),
      totalDiscount: centsNumber(computed.totalDiscountCents),
      items: computed.lines.map(lineToWire),
    },
  };
}

const skusOf = (items: ReceiptLineInput[]) => [...new Set(items.map((i) => i.sku))];

/**
 * POST /pos/api/v1/accruals. One statement does it all when the card is active and a ruleset is in force;
 * only when it does nothing is the state read to say why (or to replay an earlier request with the id).
 */
export async function accrue(db: Db, pos: PosIdentity, input: AccrualInput, requestId: string) {
  const ctx = writeContext('accrual', pos.id, '', input, requestId);
  const totals = receiptTotals(input.receipt.items);
  // A card activated or a ruleset coming into force between the write and the look sends us round again.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const stored = await retryStatement(() =>
        insertAccrual(db, {
          rowId: randomUUID(),
          operationId: input.operationId,
          posId: pos.id,
          hash: ctx.hash,
          cardNumber: input.cardNumber,
          receiptId: input.receipt.receiptId,
          ...totals,
        }),
      );
      if (stored) return firstAnswer('accrual', stored);
    } catch (error) {
      if (isUniqueViolation(error)) return resolveExisting(await findRequest(db, input.operationId), ctx);
      throw error;
    }
    const context = await readAccrualContext(db, {
      operationId: input.operationId,
      cardNumber: input.cardNumber,
      skus: skusOf(input.receipt.items),
    });
    if (context.existing_pos_id) {
      return resolveExisting(
        {
          pos_id: context.existing_pos_id,
          request_hash: context.existing_hash!,
          status_code: context.existing_status!,
          response: context.existing_response,
        },
        ctx,
      );
    }
    const refused = refusal(context) ?? overLimit(context, compute(context, input.receipt.items));
    if (refused) return failAccrual(db, ctx, refused, context, input);
  }
  return failAccrual(db, ctx, new AppError('CARD_BLOCKED'), null, input);
}

function failAccrual(
  db: Db,
  ctx: WriteContext,
  error: AppError,
  context: AccrualContextRow | null,
  input: AccrualInput,
): Promise<PosOutcome> {
  return recordFailure(db, ctx, error, {
    points: '0',
    accountId: context?.account_id,
    cardId: context?.card_id,
    cardNumber: input.cardNumber,
    meta: { receipt: input.receipt.receiptId },
  });
}

/** POST /pos/api/v1/accruals/preview: the same computation, nothing written. */
export async function previewAccrual(
  db: Db,
  input: Omit<AccrualInput, 'operationId'> & { operationId?: string },
): Promise<AccrualPreviewResponse> {
  const context = await readAccrualContext(db, {
    operationId: null,
    cardNumber: input.cardNumber,
    skus: skusOf(input.receipt.items),
  });
  const refused = refusal(context);
  if (refused) throw refused;
  const computed = compute(context, input.receipt.items);
  // Preview and accrual agree: what the accrual would refuse, the preview refuses too.
  const over = overLimit(context, computed);
  if (over) throw over;
  const body = wireBody(input.operationId ?? null, input.receipt.receiptId, computed);
  return { ...body, balance: centsNumber(parseCents(context.balance!) + computed.pointsCents) };
}
