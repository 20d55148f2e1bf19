import type { CardStatus } from '@loyalty/contracts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cardStatusOptions } from './cards-api';

const ALL = 'all';

export function CardStatusFilter({
  value,
  onChange,
}: {
  value: CardStatus | undefined;
  onChange: (status: CardStatus | undefined) => void;
}) {
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? undefined : (next as CardStatus))}
    >
      <SelectTrigger aria-label="Filter by status" className="h-8 w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All statuses</SelectItem>
        {cardStatusOptions.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
