import type { Operation, OperationMeta } from '@loyalty/contracts';
import { formatPoints } from '@/lib/points';

/**
 * Spec section 2, the POS cell: name and address; else name; else address; else the first 8 characters of
 * the POS id plus an ellipsis; else a dash. `secondary` is the address shown under the name.
 */
export function posParts(pos: Pick<Operation, 'posId' | 'posName' | 'posAddress'>): {
  primary: string;
  secondary?: string;
} {
  const name = pos.posName?.trim();
  const address = pos.posAddress?.trim();
  if (name && address) return { primary: name, secondary: address };
  if (name) return { primary: name };
  if (address) return { primary: address };
  if (pos.posId) return { primary: `${pos.posId.slice(0, 8)}…` };
  return { primary: '—' };
}

/**
 * Spec section 3's meta (store, transaction, receipt, reward, reason, error), and what traces the points
 * (PROGRAMME-API §1, "every point traceable"): the import and file line an imported credit came from
 * (`line`, with `source` and `importId`), so it is told from a manual one; the accrual a return takes back
 * (`returnOf`) and the points it could not (`shortfall`), so a partial recovery does not read as a full one;
 * the hold a redemption captured, or a refused capture or release named; how many lots an expiry took; and
 * the id a refused write asked for but did not take (`operationId`: the Operation ID column stays the id taken).
 */
const detailLabels: ReadonlyArray<[keyof OperationMeta, string]> = [
  ['store', 'Store'],
  ['transactionId', 'Transaction'],
  ['receipt', 'Receipt'],
  ['reward', 'Reward'],
  ['line', 'Import'],
  ['reason', 'Reason'],
  ['returnOf', 'Return of'],
  ['shortfall', 'Shortfall'],
  ['holdId', 'Hold'],
  ['lots', 'Lots'],
  ['operationId', 'Requested ID'],
  ['error', 'Error'],
];

/** An import's kind as the Import screen names it (meta.source of the credits it wrote). */
const IMPORT_KINDS: Record<string, string> = {
  'import-opening': 'Members',
  'import-credit': 'Bulk credits',
};

export interface OperationDetail {
  key: keyof OperationMeta;
  label: string;
  value: string;
  /** `line` (Import): the import's id, whose entry the audit log has. */
  importId?: string;
}

function detailValue(key: keyof OperationMeta, meta: OperationMeta): string {
  const value = meta[key] as string | number | boolean;
  if (key === 'shortfall') return formatPoints(value as number | string);
  if (key === 'line') return `${IMPORT_KINDS[String(meta.source)] ?? 'File'}, line ${value}`;
  return String(value);
}

/** Spec section 2: Details come from meta (store, transaction, receipt, reward, reason, error, and the above). */
export function operationDetails(meta: OperationMeta | null | undefined): OperationDetail[] {
  const details: OperationDetail[] = [];
  for (const [key, label] of detailLabels) {
    const value = meta?.[key];
    if (!meta || value === undefined || value === null || value === '') continue;
    const detail: OperationDetail = { key, label, value: detailValue(key, meta) };
    if (key === 'line' && meta.importId) detail.importId = String(meta.importId);
    details.push(detail);
  }
  return details;
}
