import type { CardStatus } from '@loyalty/contracts';
import { FilterSelect } from '@/components/ui/option-select';
import { cardStatusOptions } from './cards-api';

export function CardStatusFilter(props: {
  value: CardStatus | undefined;
  onChange: (status: CardStatus | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by status"
      allLabel="All statuses"
      options={cardStatusOptions}
      className="w-36"
      {...props}
    />
  );
}
