import type { AuditEntry, Paged } from '@loyalty/contracts';
import type { Db } from '../../db/connection';
import { toPage } from '../../lib/paging';
import { type AuditFilter, listAudit } from './audit.repository';

export async function listAuditPage(db: Db, filter: AuditFilter): Promise<Paged<AuditEntry>> {
  const { rows, total } = await listAudit(db, filter);
  return toPage(rows, total, filter.page, filter.size);
}
