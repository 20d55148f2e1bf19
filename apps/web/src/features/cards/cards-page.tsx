import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function CardsPage() {
  return <PlaceholderPage title="Loyalty Cards" />;
}
