import { randomUUID } from 'node:crypto';
import { accountImportRow, type ImportError, type ImportReport, importColumns } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../plugins/auth';
import { postStagedCredits } from '../ledger/staged-credits';
import { readCsv } from './csv-reader';
import { type ImportOptions, type ReadFile, runImport, validationError } from './import-run';
import {
  ACCOUNTS_STAGE,
  accountsOutcome,
  classifyExisting,
  insertNewAccounts,
  issueCards,
  planForBulk,
  refreshTableStatistics,
  refuseTakenCards,
  type StagedAccountRows,
  stageAccounts,
} from './imports.repository';
import { appendMemberEvents } from './member-events';

/**
 * Reads the members file: each row checked against the contract's row schema; a client ID (in any case)
 * or a card number already on an earlier line of the file is an error row, since one file cannot create
 * one account twice. What is left becomes the staging table's columns.
 */
async function readAccountsFile(
  body: NodeJS.ReadableStream,
  maxBytes: number,
): Promise<{ file: ReadFile; rows: StagedAccountRows }> {
  const rows: StagedAccountRows = {
    line: [],
    clientId: [],
    cardNumber: [],
    points: [],
    expiresAt: [],
    reason: [],
  };
  const errors: ImportError[] = [];
  const clientLines = new Map<string, number>();
  const cardLines = new Map<string, number>();
  let count = 0;
  const read = await readCsv(body, { columns: importColumns.accounts, maxBytes }, ({ line, cells }) => {
    count++;
    const parsed = accountImportRow.safeParse(cells);
    if (!parsed.success) {
      errors.push(validationError(line, parsed.error));
      return;
    }
    const row = parsed.data;
    const clientKey = row.clientId.toLowerCase();
    const sameClient = clientLines.get(clientKey);
    if (sameClient !== undefined) {
      errors.push({ line, code: 'ACCOUNT_EXISTS', message: `clientId is also on line ${sameClient}` });
      return;
    }
    const sameCard = row.cardNumber === undefined ? undefined : cardLines.get(row.cardNumber);
    if (sameCard !== undefined) {
      errors.push({ line, code: 'CARD_EXISTS', message: `cardNumber is also on line ${sameCard}` });
      return;
    }
    clientLines.set(clientKey, line);
    if (row.cardNumber !== undefined) cardLines.set(row.cardNumber, line);
    rows.line.push(line);
    rows.clientId.push(row.clientId);
    rows.cardNumber.push(row.cardNumber ?? null);
    rows.points.push(row.points ?? null);
    rows.expiresAt.push(row.expiresAt ?? null);
    rows.reason.push(row.reason ?? null);
  });
  return { file: { rows: count, errors, body: read }, rows };
}

/**
 * POST /api/v1/imports/accounts: new client IDs become accounts with their card and an opening balance
 * (an adjustment through the ledger, `expiresAt` kept in its meta for the lots to come); the same row
 * imported again is unchanged; a client ID or card number that exists otherwise is an error row.
 */
export async function importAccounts(
  db: Db,
  actor: AuthUser,
  body: NodeJS.ReadableStream,
  options: ImportOptions & { maxBytes: number },
): Promise<ImportReport> {
  const { file, rows } = await readAccountsFile(body, options.maxBytes);
  const importId = randomUUID();
  return runImport(db, {
    kind: 'accounts',
    importId,
    actor,
    file,
    options,
    async merge(trx) {
      await planForBulk(trx);
      await stageAccounts(trx, rows);
      await refuseTakenCards(trx);
      await insertNewAccounts(trx);
      await issueCards(trx);
      await classifyExisting(trx);
      await refreshTableStatistics(trx);
      await appendMemberEvents(trx);
      await postStagedCredits(trx, {
        stage: ACCOUNTS_STAGE,
        meta: { source: 'import-opening', importId },
        createdBy: actor.username,
        existingAccounts: false,
      });
      return accountsOutcome(trx);
    },
  });
}
