import { accountImportRow, EXPIRES_AT_PAST, type ImportReport, importColumns } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../plugins/auth';
import { postStagedCredits } from '../ledger/staged-credits';
import type { CsvRecord } from './csv-reader';
import type { ImportRow } from './import-rows.repository';
import { type ImportOptions, invalidRow, runImport } from './import-run';
import { withSpooledFile } from './import-spool';
import {
  ACCOUNTS_STAGE,
  accountsOutcome,
  BULK_ROWS,
  classifyExisting,
  insertNewAccounts,
  issueCards,
  planForBulk,
  refreshTableStatistics,
  refuseCardsOverLimit,
  refuseErasedClients,
  refuseErasedMeanwhile,
  refuseExpiredOpenings,
  refuseRepeatsInFile,
  refuseTakenCards,
  stageAccounts,
} from './imports.repository';
import { appendMemberEvents } from './member-events';

/** A line of a members file checked against the contract's row schema. */
function memberRow({ line, cells }: CsvRecord): ImportRow {
  const parsed = accountImportRow.safeParse(cells);
  if (!parsed.success) return invalidRow(line, parsed.error, cells);
  const row = parsed.data;
  return {
    line,
    clientId: row.clientId,
    cardNumber: row.cardNumber ?? null,
    points: row.points ?? null,
    expiresAt: row.expiresAt ?? null,
    reason: row.reason ?? null,
    error: null,
    message: null,
  };
}

/**
 * POST /api/v1/imports/accounts: new client IDs become accounts with their card and an opening balance
 * (an adjustment through the ledger, whose lot expires at the row's `expiresAt`, also kept in its meta); the same row
 * imported again is unchanged; a client ID or card number that exists otherwise, or that an earlier line
 * of the file already has, is an error row. The rows go to the spool as they stream in; the checks and the
 * merge are set-based in the import's transaction.
 */
export async function importAccounts(
  db: Db,
  actor: AuthUser,
  body: NodeJS.ReadableStream,
  /** `erasedKeySecret`: the key erased client IDs are kept with (member-data's `erasedClientSecret`). */
  options: ImportOptions & { maxBytes: number; erasedKeySecret: string },
): Promise<ImportReport> {
  const read = { columns: importColumns.accounts, maxBytes: options.maxBytes };
  return withSpooledFile(db, body, read, memberRow, (file) =>
    runImport(db, {
      kind: 'accounts',
      actor,
      file,
      options,
      keySecret: options.erasedKeySecret,
      async merge(trx) {
        // A small file is merged with the planner's own plans (BULK_ROWS).
        const bulk = file.rows >= BULK_ROWS;
        if (bulk) await planForBulk(trx);
        await stageAccounts(trx, file.importId);
        // The server's clock, as the row schema's checks read it (tests move it with fake timers).
        await refuseExpiredOpenings(trx, new Date(), EXPIRES_AT_PAST);
        await refuseRepeatsInFile(trx);
        await refuseTakenCards(trx);
        await refuseErasedClients(trx, options.erasedKeySecret);
        await refuseCardsOverLimit(trx);
        await insertNewAccounts(trx);
        await refuseErasedMeanwhile(trx, options.erasedKeySecret);
        await issueCards(trx);
        await classifyExisting(trx);
        if (bulk) await refreshTableStatistics(trx);
        await appendMemberEvents(trx);
        await postStagedCredits(trx, {
          stage: ACCOUNTS_STAGE,
          meta: { source: 'import-opening', importId: file.importId },
          createdBy: actor.username,
          existingAccounts: false,
          dryRun: options.dryRun,
        });
        return accountsOutcome(trx);
      },
    }),
  );
}
