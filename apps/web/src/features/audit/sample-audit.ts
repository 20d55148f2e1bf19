import type { AuditEntry, Paged } from '@loyalty/contracts';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/**
 * Spec section 7: when the audit log cannot be loaded, sample entries are shown instead. The screen marks
 * them with a banner so nobody takes them for real ones.
 */
export function sampleAuditPage(): Paged<AuditEntry> {
  const content: AuditEntry[] = [
    {
      id: 'sample-1',
      username: 'admin',
      executedAt: minutesAgo(5),
      message: 'Created user jane.doe',
      targetType: 'user',
      targetId: 'sample-user-1',
      source: null,
      dest: { username: 'jane.doe', email: 'jane@example.com', fullName: 'Jane Doe', role: 'MANAGER' },
    },
    {
      id: 'sample-2',
      username: 'jane.doe',
      executedAt: minutesAgo(42),
      message: 'Blocked card ****4242',
      targetType: 'card',
      targetId: 'sample-card-1',
      source: { status: 'active', blockedReason: null },
      dest: { status: 'blocked', blockedReason: 'Reported lost' },
    },
    {
      id: 'sample-3',
      username: 'admin',
      executedAt: minutesAgo(180),
      message: 'Updated settings',
      targetType: 'settings',
      targetId: null,
      source: { holds: { ttl_minutes: 30 }, cards: { limit_per_account: 2 } },
      dest: { holds: { ttl_minutes: 60 }, cards: { limit_per_account: 3 } },
    },
    {
      id: 'sample-4',
      username: 'jane.doe',
      executedAt: minutesAgo(1440),
      message: 'Deactivated POS key Store 12',
      targetType: 'pos_key',
      targetId: 'sample-pos-key-1',
      source: { name: 'Store 12', status: 'active' },
      dest: { name: 'Store 12', status: 'inactive' },
    },
  ];
  return { content, totalElements: content.length, totalPages: 1, page: 0, size: content.length };
}
