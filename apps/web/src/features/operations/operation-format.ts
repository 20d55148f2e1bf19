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
 * Spec section 3's meta (store, transaction, receipt, reward, reason, error), and what tells staff more about
 * a POS write: the accrual a return takes back (`returnOf`) and the points it could not (`shortfall`), so a
 * partial recovery does not read as a full one; the hold a refused capture or release named; and the id a
 * refused write asked for but did not take (`operationId`: the Operation ID column stays the id taken).
 */
const detailLabels: ReadonlyArray<[keyof OperationMeta, string]> = [
  ['store', 'Store'],
  ['transactionId', 'Transaction'],
  ['receipt', 'Receipt'],
  ['reward', 'Reward'],
  ['reason', 'Reason'],
  ['returnOf', 'Return of'],
  ['shortfall', 'Shortfall'],
  ['holdId', 'Hold'],
  ['operationId', 'Requested ID'],
  ['error', 'Error'],
];

export interface OperationDetail {
  key: keyof OperationMeta;
  label: string;
  value: string;
}

/** Spec section 2: Details come from meta (store, transaction, receipt, reward, reason, error, and the above). */
export function operationDetails(meta: OperationMeta | null | undefined): OperationDetail[] {
  const details: OperationDetail[] = [];
  for (const [key, label] of detailLabels) {
    const value = meta?.[key];
    if (value === undefined || value === null || value === '') continue;
    details.push({
      key,
      label,
      value: key === 'shortfall' ? formatPoints(value as number | string) : String(value),
    });
  }
  return details;
}
