import type { Tx } from '../../db/transaction';
import { centsText, MAX_BALANCE_CENTS } from '../../lib/money';
import { appendOperationEvents } from '../events/emit';
import { insertStagedAdjustments, lockStagedAccounts, refuseOverLimit } from './staged-credits.repository';

const EVENT_BATCH = 5000;

export interface StagedCredits {
  /** The import's temporary staging table: line, account_id, points, reason, expires_at, post, error. */
  stage: string;
  /** Merged into every operation's meta: `source` (import-opening | import-credit) and `importId`. */
  meta: { source: 'import-opening' | 'import-credit'; importId: string };
  createdBy: string;
  /**
   * New accounts created in this transaction are invisible to everyone else, so an opening balance
   * needs neither the lock nor the limit (a row's points are at most 10⁹).
   */
  existingAccounts: boolean;
}

/**
 * The ledger's bulk form of an admin adjustment (admin-adjustment.ts), for imports: lock the accounts →
 * refuse what would pass the balance limit (BALANCE_LIMIT_EXCEEDED on each of that account's rows, the
 * rule of `adjustmentRefusal` over the file's sum) → write the adjustments and their balance changes in
 * one statement. `expiresAt` rides in the operation's meta until lots exist (PROGRAMME-API.md §1).
 */
export async function postStagedCredits(trx: Tx, input: StagedCredits): Promise<void> {
  if (input.existingAccounts) {
    await lockStagedAccounts(trx, input.stage);
    await refuseOverLimit(trx, input.stage, centsText(MAX_BALANCE_CENTS));
  }
  const posted = await insertStagedAdjustments(trx, input);
  // points.adjusted for each, as for one admin adjustment, a batch of operations per outbox statement.
  for (let i = 0; i < posted.length; i += EVENT_BATCH)
    await appendOperationEvents(trx, 'points.adjusted', posted.slice(i, i + EVENT_BATCH));
}
