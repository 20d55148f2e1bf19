import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function ClientsPage() {
  return <PlaceholderPage title="Client Lookup" />;
}
