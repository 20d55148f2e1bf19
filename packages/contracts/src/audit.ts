import { z } from 'zod';
import { isoTimestamp, isUuid, listFormat, pageQuery, sortParam } from './common';

export const auditTargetTypes = [
  'pos_key',
  'user',
  'ruleset',
  'account',
  'card',
  'settings',
  'operation',
  'auth',
  'import',
  'webhook',
] as const;
export const auditTargetType = z.enum(auditTargetTypes);
export type AuditTargetType = z.infer<typeof auditTargetType>;

export const auditTargetLabels: Record<AuditTargetType, string> = {
  pos_key: 'POS Key',
  user: 'User',
  ruleset: 'Ruleset',
  account: 'Account',
  card: 'Card',
  settings: 'Settings',
  operation: 'Operation',
  auth: 'Sign-in',
  import: 'Import',
  webhook: 'Webhook',
};

export const auditEntry = z.object({
  id: z.uuid(),
  username: z.string().nullable(),
  executedAt: isoTimestamp,
  message: z.string(),
  targetType: auditTargetType,
  targetId: z.string().nullable(),
  source: z.unknown().nullable().describe('state before the change'),
  dest: z.unknown().nullable().describe('state after the change'),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditListQuery = pageQuery.extend({
  format: listFormat,
  username: z.string().trim().max(100).optional(),
  targetType: auditTargetType.optional(),
  /** Target ids are UUIDs, stored in lower case; a UUID is the same id in either case. */
  targetId: z
    .string()
    .trim()
    .max(200)
    .transform((v) => (isUuid(v) ? v.toLowerCase() : v))
    .optional(),
  sort: sortParam(['executedAt', 'username', 'targetType']),
});
export type AuditListQuery = z.input<typeof auditListQuery>;
