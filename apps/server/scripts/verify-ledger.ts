import { loadDatabaseConfig } from '../src/config';
import type { Db } from '../src/db/connection';
import { ledgerIsSound, verifyLedger } from '../src/modules/ledger/verify-ledger';
import { assertMigrated, exitOnStartProblem, openScriptDatabase } from '../src/start-problems';

/**
 * `npm run verify-ledger`: recompute every account's balance and held balance from the operations of
 * the configured database, and prove the points lots against their consumptions and the balances (DATABASE_URL or DATA_DIR) and print any difference.
 * Exit codes: 0 the ledger is sound, 1 differences found, 2 it could not run (a bad variable, a database it
 * cannot reach or that is not migrated, a DATA_DIR that holds no database, told in one line as the server
 * tells it; or an unforeseen failure).
 * A pipeline can tell "the ledger is wrong" from "the check never ran".
 */
const COULD_NOT_RUN = 2;

try {
  const handle = await openScriptDatabase(loadDatabaseConfig());
  let sound: boolean;
  try {
    sound = await verify(handle.db);
  } finally {
    await handle.close();
  }
  process.exit(sound ? 0 : 1);
} catch (error) {
  exitOnStartProblem(error, COULD_NOT_RUN);
}

async function verify(db: Db): Promise<boolean> {
  await assertMigrated(db);
  const report = await verifyLedger(db);
  const sound = ledgerIsSound(report);
  console.log(`Accounts checked: ${report.accountsChecked}`);
  for (const d of report.differences) {
    console.log(
      `account ${d.accountId}: balance ${d.balance} (ledger ${d.expectedBalance}), ` +
        `held ${d.heldBalance} (ledger ${d.expectedHeldBalance})`,
    );
  }
  for (const id of report.holdsCapturedTwice) console.log(`hold ${id}: captured more than once`);
  for (const id of report.overReturnedLines) console.log(`receipt line ${id}: returned more than earned`);
  for (const id of report.lots.lotsOff) console.log(`lot ${id}: remaining is not points − its consumptions`);
  for (const id of report.lots.accountsOff)
    console.log(`account ${id}: Σ remaining of its lots is not its balance`);
  for (const id of report.lots.debitsOff)
    console.log(`operation ${id}: its lot consumptions do not sum to its points`);
  for (const id of report.lots.holdsUncovered)
    console.log(`account ${id}: its open holds need more points than its available lots hold`);
  for (const id of report.lots.creditsOff)
    console.log(`lot or credit ${id}: its credit or its lot is missing or does not match`);
  for (const id of report.lots.expiriesOff) console.log(`expiry ${id}: took from a lot not yet expired`);
  console.log(
    sound ? 'Ledger OK: every balance matches its operations and its lots.' : 'Ledger differences found.',
  );
  return sound;
}
