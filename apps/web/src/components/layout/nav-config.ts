import type { Role } from '@loyalty/contracts';
import {
  BadgePercentIcon,
  CreditCardIcon,
  FileUpIcon,
  HistoryIcon,
  KeyRoundIcon,
  LandmarkIcon,
  LayoutDashboardIcon,
  ListXIcon,
  type LucideIcon,
  ScrollTextIcon,
  SettingsIcon,
  SquareTerminalIcon,
  UserSearchIcon,
  UsersIcon,
  WalletIcon,
  WebhookIcon,
} from 'lucide-react';

export interface NavItem {
  title: string;
  url: string;
  icon: LucideIcon;
  /** Other paths that highlight this entry (the dashboard is also /dashboard). */
  aliases?: string[];
  /** Roles that may open it; absent means every role. The server enforces the same rule. */
  roles?: Role[];
}

export interface NavGroup {
  title: string;
  items: NavItem[];
}

/**
 * Spec section 2 "Shell": the three groups, their entries and order. Issue 16 hides what the signed-in
 * role cannot open (a viewer saw Users and Audit Logs that led to a wall); see `navGroupsFor`.
 */
export const navGroups: NavGroup[] = [
  {
    title: 'General',
    items: [
      { title: 'Dashboard', url: '/', icon: LayoutDashboardIcon, aliases: ['/dashboard'] },
      { title: 'Users', url: '/users', icon: UsersIcon, roles: ['ADMIN'] },
      { title: 'Settings', url: '/settings', icon: SettingsIcon },
      { title: 'Audit Logs', url: '/audit', icon: ScrollTextIcon, roles: ['ADMIN'] },
    ],
  },
  {
    title: 'Loyalty Program',
    items: [
      { title: 'Rulesets', url: '/rulesets', icon: BadgePercentIcon },
      { title: 'SKU Exclusions', url: '/sku-exclusions', icon: ListXIcon },
      { title: 'Accounts', url: '/accounts', icon: WalletIcon },
      { title: 'Cards', url: '/cards', icon: CreditCardIcon },
      { title: 'Client Lookup', url: '/clients', icon: UserSearchIcon },
      { title: 'Operations', url: '/operations', icon: HistoryIcon },
      { title: 'Finance', url: '/reports', icon: LandmarkIcon, roles: ['ADMIN', 'MANAGER'] },
      { title: 'Import', url: '/imports', icon: FileUpIcon, roles: ['ADMIN', 'MANAGER'] },
    ],
  },
  {
    title: 'Point of Sale',
    items: [
      { title: 'POS Keys', url: '/pos-keys', icon: KeyRoundIcon },
      { title: 'POS API', url: '/pos-api', icon: SquareTerminalIcon },
      { title: 'Webhooks', url: '/webhooks', icon: WebhookIcon, roles: ['ADMIN'] },
    ],
  },
];

/** The entries `role` may open; a group left empty is dropped. An unknown role sees every entry. */
export function navGroupsFor(role: Role | null): NavGroup[] {
  return navGroups
    .map((group) => ({
      ...group,
      items: group.items.filter((item) => !item.roles || !role || item.roles.includes(role)),
    }))
    .filter((group) => group.items.length > 0);
}

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  const paths = [item.url, ...(item.aliases ?? [])];
  return paths.some((path) =>
    path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`),
  );
}
