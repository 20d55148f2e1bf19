import type { ImportKind, ImportReport } from '@loyalty/contracts';
import { apiRequest } from '@/lib/api-client';

export interface ImportRequest {
  kind: ImportKind;
  file: File;
  dryRun: boolean;
  skipInvalid: boolean;
}

/**
 * Sends the picked file as text/csv (spreadsheets on Windows label .csv files application/vnd.ms-excel).
 * Silent: the screen shows a refused file in place, with its line, instead of a toast.
 */
export function postImport({ kind, file, dryRun, skipInvalid }: ImportRequest): Promise<ImportReport> {
  return apiRequest<ImportReport>(`/api/v1/imports/${kind}`, {
    method: 'POST',
    query: { dryRun, skipInvalid },
    body: new Blob([file], { type: 'text/csv' }),
    headers: { 'Content-Type': 'text/csv' },
    silent: true,
  });
}

export const importKindInfo: Record<ImportKind, { label: string; columns: string; description: string }> = {
  accounts: {
    label: 'Members',
    columns: 'clientId,cardNumber,points,expiresAt,reason',
    description:
      'New accounts with their card (8–19 digits) and opening points. Only clientId is required; a row imported before is unchanged.',
  },
  accruals: {
    label: 'Bulk credits',
    columns: 'clientId,points,reason (or cardNumber instead of clientId)',
    description:
      'Points added to existing accounts, one adjustment per row. The same file sent again credits nothing; the check warns when an earlier import already credited the same rows.',
  },
};
