import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function SettingsPage() {
  return <PlaceholderPage title="Settings" />;
}
