import type { Account } from '@loyalty/contracts';
import { toast } from 'sonner';
import { csvFileName } from '@/components/data-table/csv';
import { fetchDownload, saveFile } from '@/lib/download';
import { handleServerError } from '@/lib/handle-server-error';
import { accountErrorContext, memberExportUrl } from './accounts-api';

/** `member-<client id>-YYYY-MM-DD.json`, the client ID kept to characters every file system accepts. */
export function memberFileName(account: Account, now = new Date()): string {
  const safe = account.clientId.replace(/[^\w.-]+/g, '_').slice(0, 60);
  return csvFileName(`member-${safe}`, now).replace(/\.csv$/, '.json');
}

/** The row menu's Export Data: downloads the member's JSON document. */
export async function exportMemberData(account: Account): Promise<void> {
  try {
    saveFile(memberFileName(account), await fetchDownload(memberExportUrl(account.id)));
    toast.success(`Member data of ${account.clientId} downloaded`);
  } catch (error) {
    handleServerError(error, accountErrorContext.exportData);
  }
}
