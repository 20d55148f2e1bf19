import type { ManualAccrualResponse } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { isForeignKeyViolation } from '../../db/sql-errors';
import { inTransaction, type Tx } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { centsNumber, centsText, toCents } from '../../lib/money';
import { canonicalJson, requestHash } from '../../lib/request-hash';
import type { AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { postAdminAdjustment } from '../ledger/admin-adjustment';
import { claimKey, storeAnswer } from '../ledger/admin-idempotency.repository';
import { keyedDigest } from '../member-data/erased-client-secret';
import { findOperationById } from '../operations/operations.repository';
import { failureBody } from '../pos/idempotency';

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
 * Points added by staff: the ledger posts the `adjustment` with its balance change (refusals —
 * ACCOUNT_NOT_FOUND, BALANCE_LIMIT_EXCEEDED — thrown before anything is written), and the audit entry
 * commits in the same transaction.
 */
async function accrueIn(trx: Tx, actor: AuthUser, input: ManualAccrualInput): Promise<ManualAccrualResponse> {
  const points = toCents(input.points);
  const posted = await postAdminAdjustment(trx, {
    accountId: input.accountId,
    points,
    reason: input.reason,
    createdBy: actor.username,
  });
  // Written just above in this transaction, so it is there.
  const operation = (await findOperationById(trx, posted.id))!;
  const balance = centsNumber(posted.balanceAfter);
  await insertAudit(trx, {
    username: actor.username,
    message: `Added ${centsText(points)} points to account${input.reason ? `: ${input.reason}` : ''}`,
    targetType: 'account',
    // The stored id, not the request's (a UUID in any case): audit entries are found by it, by the audit
    // filter and by a member's erasure, which would otherwise leave this reason behind.
    targetId: operation.accountId,
    source: { balance: centsNumber(posted.balanceBefore) },
    dest: { balance, operationId: operation.id, points: centsNumber(points) },
  });
  return { operation, balance };
}

/**
 * POST /api/v1/admin/operations/manual-accrual. With an Idempotency-Key (issue 15.7, scoped to the
 * signed-in user): the key is claimed in the accrual's transaction and committed with its answer, a
 * refusal included; the same key with the same (parsed) body gets that answer again and nothing else
 * happens; with another body, 409 IDEMPOTENCY_KEY_REUSED. The request hash is stored keyed with `keySecret`
 * (member-data's `erasedClientSecret`, migration 048): it is of the account and the reason, and an erasure,
 * which clears the reason, keeps the key and its answer, so that a retry still replays (without the reason).
 */
export async function manualAccrual(
  db: Db,
  actor: AuthUser,
  input: ManualAccrualInput,
  options: { idempotencyKey?: string; requestId: string; keySecret: string },
): Promise<ManualAccrualOutcome> {
  const key = options.idempotencyKey;
  if (key === undefined) {
    const body = await inTransaction(db, (trx) => accrueIn(trx, actor, input));
    return { status: 201, body, replayed: false };
  }
  const plainHash = requestHash('manual-accrual', canonicalJson(input));
  const hash = keyedDigest(options.keySecret, plainHash);
  return inTransaction(db, async (trx) => {
    const earlier = await claimKey(trx, { scope: { userId: actor.id }, key, hash, keyed: true }).catch(
      (error: unknown) => {
        // The key is the user's: deleted since the request was let in, their session has ended.
        if (isForeignKeyViolation(error, 'idempotency_keys_user_id_fkey')) throw new AppError('UNAUTHORIZED');
        throw error;
      },
    );
    if (earlier) {
      // Plain: stored by a release before migration 048, not yet keyed by a server starting.
      if (earlier.request_hash !== (earlier.keyed ? hash : plainHash))
        throw new AppError('IDEMPOTENCY_KEY_REUSED');
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
    await storeAnswer(trx, { scope: { userId: actor.id }, key, status: outcome.status, body: outcome.body });
    return outcome;
  });
}
