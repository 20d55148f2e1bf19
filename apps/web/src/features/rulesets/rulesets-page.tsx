import { PlaceholderPage } from '@/components/layout/placeholder-page';

export function RulesetsPage() {
  return <PlaceholderPage title="Rulesets" />;
}
