import { createHash } from 'node:crypto';
import type { ManualAccrualResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { amountNumber, amountText, MAX_BALANCE_CENTS, parseCents } from '../../lib/money';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { insertAdminOperation } from '../operations/operations.repository';
import { canonicalJson, failureBody } from '../pos/idempotency';
import { addToBalance, findActiveCard, lockAccount } from './accounts.repository';
import { claimKey, storeAnswer } from './idempotency-keys.repository';

interface ManualAccrualInput {
  accountId: string;
  points: number;
  reason: string | null;
}

/** What the route answers: the first answer, or its replay for a repeated Idempotency-Key. */
export interface ManualAccrualOutcome {
  status: number;
  body: ManualAccrualResponse | ReturnType<typeof failureBody>;
  replayed: boolean;
}

/**
 * Points added by staff: the `adjustment` operation that justifies them and the balance change land in
 * one transaction (ARCHITECTURE.md "Ledger rules"), under the account lock so concurrent accruals add up.
 * Refusals (ACCOUNT_NOT_FOUND, BALANCE_LIMIT_EXCEEDED) are thrown before anything is written.
 */
async function accrueIn(trx: Tx, actor: AuthUser, input: ManualAccrualInput): Promise<ManualAccrualResponse> {
  // Exact decimal text for SQL; the request schema already allows at most 2 decimals.
  const points = amountText(input.points);
  const account = await lockAccount(trx, input.accountId);
  if (!account) throw new AppError('ACCOUNT_NOT_FOUND');
  // Issue 15.2: refused before anything is written, rather than a numeric overflow (500).
  if (parseCents(account.balance) + parseCents(points) > MAX_BALANCE_CENTS) {
    throw new AppError('BALANCE_LIMIT_EXCEEDED');
  }
  const card = await findActiveCard(trx, input.accountId);
  const operation = await insertAdminOperation(trx, {
    type: 'adjustment',
    status: 'completed',
    points,
    accountId: input.accountId,
    card: card ?? null,
    meta: input.reason ? { reason: input.reason } : {},
    createdBy: actor.username,
  });
  const balance = await addToBalance(trx, input.accountId, points);
  await insertAudit(trx, {
    username: actor.username,
    message: `Added ${points} points to account${input.reason ? `: ${input.reason}` : ''}`,
    targetType: 'account',
    targetId: input.accountId,
    source: { balance: amountNumber(account.balance) },
    dest: { balance: amountNumber(balance), operationId: operation.id, points: amountNumber(points) },
  });
  return { operation, balance: amountNumber(balance) };
}

/**
 * POST /api/v1/admin/operations/manual-accrual. With an Idempotency-Key (issue 15.7, scoped to the
 * signed-in user): the key is claimed in the accrual's transaction and committed with its answer, a
 * refusal included; the same key with the same (parsed) body gets that answer again and nothing else
 * happens; with another body, 409 IDEMPOTENCY_KEY_REUSED.
 */
export async function manualAccrual(
  db: Db,
  actor: AuthUser,
  input: ManualAccrualInput,
  options: { idempotencyKey?: string; requestId: string },
): Promise<ManualAccrualOutcome> {
  const key = options.idempotencyKey;
  if (key === undefined) {
    const body = await inTransaction(db, (trx) => accrueIn(trx, actor, input));
    return { status: 201, body, replayed: false };
  }
  const hash = createHash('sha256')
    .update(`manual-accrual\n${canonicalJson(input)}`)
    .digest('hex');
  return inTransaction(db, async (trx) => {
    const earlier = await claimKey(trx, { userId: actor.id, key, hash });
    if (earlier) {
      if (earlier.request_hash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
      return {
        status: earlier.status_code,
        body: earlier.response as ManualAccrualOutcome['body'],
        replayed: true,
      };
    }
    let outcome: ManualAccrualOutcome;
    try {
      outcome = { status: 201, body: await accrueIn(trx, actor, input), replayed: false };
    } catch (error) {
      // Only the refusals above, thrown before any write: what commits is the key and this answer.
      if (!(error instanceof AppError)) throw error;
      outcome = { status: error.status, body: failureBody(error, options.requestId), replayed: false };
    }
    await storeAnswer(trx, { userId: actor.id, key, status: outcome.status, body: outcome.body });
    return outcome;
  });
}
