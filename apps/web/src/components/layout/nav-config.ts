import {
  BadgePercentIcon,
  CreditCardIcon,
  HistoryIcon,
  KeyRoundIcon,
  LayoutDashboardIcon,
  ListXIcon,
  type LucideIcon,
  ScrollTextIcon,
  SettingsIcon,
  SquareTerminalIcon,
  UserSearchIcon,
  UsersIcon,
  WalletIcon,
} from 'lucide-react';

export interface NavItem {
  title: string;
  url: string;
  icon: LucideIcon;
  /** Other paths that highlight this entry (the dashboard is also /dashboard). */
  aliases?: string[];
}

export interface NavGroup {
  title: string;
  items: NavItem[];
}

/** Spec section 2 "Shell": the three groups, their entries and order. No role filtering. */
export const navGroups: NavGroup[] = [
  {
    title: 'General',
    items: [
      { title: 'Dashboard', url: '/', icon: LayoutDashboardIcon, aliases: ['/dashboard'] },
      { title: 'Users', url: '/users', icon: UsersIcon },
      { title: 'Settings', url: '/settings', icon: SettingsIcon },
      { title: 'Audit Logs', url: '/audit', icon: ScrollTextIcon },
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
    ],
  },
  {
    title: 'Point of Sale',
    items: [
      { title: 'POS Keys', url: '/pos-keys', icon: KeyRoundIcon },
      { title: 'POS API', url: '/pos-api', icon: SquareTerminalIcon },
    ],
  },
];

export function isNavItemActive(item: NavItem, pathname: string): boolean {
  const paths = [item.url, ...(item.aliases ?? [])];
  return paths.some((path) =>
    path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`),
  );
}
