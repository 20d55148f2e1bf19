import type { Role } from '@loyalty/contracts';

/** The spec's words for the roles, in the order the screen lists them (contracts' `roleLabels` agrees). */
export const roleOptions: readonly { value: Role; label: string }[] = [
  { value: 'ADMIN', label: 'Administrator' },
  { value: 'MANAGER', label: 'Manager' },
  { value: 'VIEWER', label: 'Viewer' },
];

export const roleLabel: Record<Role, string> = {
  ADMIN: 'Administrator',
  MANAGER: 'Manager',
  VIEWER: 'Viewer',
};
