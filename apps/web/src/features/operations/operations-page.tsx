import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function OperationsPage() {
  return <PlaceholderPage title="Operations History" />;
}
