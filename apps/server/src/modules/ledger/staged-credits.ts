import type { Tx } from '../../db/transaction';
import { centsText, MAX_BALANCE_CENTS } from '../../lib/money';
import { appendOperationEvents } from '../events/emit';
import {
  insertStagedAdjustments,
  lockStagedAccounts,
  refuseErasedAccounts,
  refuseOverLimit,
} from './staged-credits.repository';

/** Rows per posting statement: what the server holds of a file's operations at a time. */
const POST_BATCH = 5000;

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
  /**
   * Runs once the accounts are locked, before the limit: refuses (error, `post` false) the rows whose account
   * changed after the caller matched them to it and before the lock (an import's rows matched by client ID).
   */
  whenLocked?: (trx: Tx) => Promise<void>;
  /**
   * A dry run: only the refusals, over the balances as committed; no account is locked and nothing is written
   * (the transaction is rolled back anyway, but a dry run of a large file held the locks of every account in
   * it, and so every till on those cards, for as long as it took to write what it then threw away).
   */
  dryRun?: boolean;
}

/**
 * The ledger's bulk form of an admin adjustment (admin-adjustment.ts), for imports: lock the accounts →
 * refuse the rows of erased members (ACCOUNT_ERASED) and what would pass the balance limit
 * (BALANCE_LIMIT_EXCEEDED on each of that account's rows, the rule of `adjustmentRefusal` over the file's sum) → write the adjustments and their balance changes in
 * batches of rows, each credit with its lot (an opening balance's `expiresAt` dates it; PROGRAMME-API.md §1).
 */
export async function postStagedCredits(trx: Tx, input: StagedCredits): Promise<void> {
  if (input.existingAccounts) {
    if (!input.dryRun) {
      await lockStagedAccounts(trx, input.stage);
      await input.whenLocked?.(trx);
    }
    // Under the lock: an erasure that renamed an account while the file waited for it is seen.
    await refuseErasedAccounts(trx, input.stage);
    await refuseOverLimit(trx, input.stage, centsText(MAX_BALANCE_CENTS));
  }
  if (input.dryRun) return;
  // A batch of rows per statement, each batch's points.adjusted events (as for one admin adjustment)
  // in one outbox statement, each with the balances after its own row (an account may have several).
  for (let afterLine = 0; ; ) {
    const posted = await insertStagedAdjustments(trx, { ...input, afterLine, limit: POST_BATCH });
    if (posted.lastLine === undefined) return;
    await appendOperationEvents(trx, 'points.adjusted', posted.ids, { creditsInOrder: true });
    afterLine = posted.lastLine;
  }
}
