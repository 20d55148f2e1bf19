import { rebuildRollups } from '../modules/analytics/rollups.repository';
import { rebuildAuditCounts } from '../modules/audit/audit.repository';
import { rebuildDeliveryCounts } from '../modules/events/deliveries.repository';
import { rebuildRowCounts } from '../modules/operations/row-counts.repository';
import { rebuildLotsOutstanding } from '../modules/reports/outstanding.repository';
import { rebuildPointsFlow } from '../modules/reports/points-flow.repository';
import { fillMissingLinesTexts } from '../modules/rulesets/backtest.repository';
import type { Db } from './connection';

/**
 * Tables derived from the ledger (row counters, analytics rollups) are kept exact by the writes that
 * change them. Bulk loads (bench dataset builder, restores) bypass that, then call this to recompute
 * every derived table from the raw tables. Each module adds its own rebuild step here.
 */
const steps: Array<{ name: string; run: (db: Db) => Promise<void> }> = [
  { name: 'row counters (operations, cards, accounts)', run: rebuildRowCounts },
  { name: 'audit log counters', run: rebuildAuditCounts },
  { name: 'webhook delivery counters', run: rebuildDeliveryCounts },
  { name: 'analytics rollups', run: rebuildRollups },
  { name: 'points-flow rollups', run: rebuildPointsFlow },
  { name: 'lots outstanding rollup', run: rebuildLotsOutstanding },
  // Only the missing ones: a receipt's text never goes stale (its columns never change after the accrual).
  {
    name: "receipts' lines texts written before migration 028",
    run: async (db) => {
      await fillMissingLinesTexts(db);
    },
  },
];

export async function rebuildDerivedTables(db: Db, log: (line: string) => void = () => {}): Promise<void> {
  for (const step of steps) {
    const start = performance.now();
    await step.run(db);
    log(`rebuilt ${step.name} in ${Math.round(performance.now() - start)} ms`);
  }
}
