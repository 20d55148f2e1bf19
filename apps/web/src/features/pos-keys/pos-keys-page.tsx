import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function PosKeysPage() {
  return <PlaceholderPage title="POS Keys" />;
}
