import type { Operation, OperationMeta } from '@loyalty/contracts';

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

const detailLabels: ReadonlyArray<[keyof OperationMeta, string]> = [
  ['store', 'Store'],
  ['transactionId', 'Transaction'],
  ['receipt', 'Receipt'],
  ['reward', 'Reward'],
  ['reason', 'Reason'],
  ['error', 'Error'],
];

export interface OperationDetail {
  key: keyof OperationMeta;
  label: string;
  value: string;
}

/** Spec section 2: Details come from meta (store, transaction, receipt, reward, reason, error). */
export function operationDetails(meta: OperationMeta | null | undefined): OperationDetail[] {
  const details: OperationDetail[] = [];
  for (const [key, label] of detailLabels) {
    const value = meta?.[key];
    if (value === undefined || value === null || value === '') continue;
    details.push({ key, label, value: String(value) });
  }
  return details;
}
