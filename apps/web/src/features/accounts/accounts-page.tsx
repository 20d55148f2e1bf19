import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function AccountsPage() {
  return <PlaceholderPage title="Accounts" />;
}
