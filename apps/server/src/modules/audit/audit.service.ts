import type { AuditEntry, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { streamList } from '../../lib/list-stream';
import { toPage } from '../../lib/paging';
import { type AuditFilter, auditExportSource, listAudit } from './audit.repository';

export async function listAuditPage(db: Db, filter: AuditFilter): Promise<Paged<AuditEntry>> {
  const { rows, total } = await listAudit(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}

/** Every row the filter matches, in the list's order (its CSV export). */
export function exportAudit(db: Db, filter: AuditFilter): AsyncIterable<AuditEntry> {
  return streamList(auditExportSource(db, filter), { snapshot: db });
}
