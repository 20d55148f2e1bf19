import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function SkuExclusionsPage() {
  return <PlaceholderPage title="SKU Exclusions" />;
}
