import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function PosApiPage() {
  return <PlaceholderPage title="POS API" />;
}
