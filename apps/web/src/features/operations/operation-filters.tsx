import type { OperationStatus, OperationType } from '@loyalty/contracts';
import { FilterSelect } from '@/components/ui/option-select';
import { cn } from '@/lib/utils';

// Spec section 2 names the filter choices in these words and this order; shown capitalised.
const choices = <T extends string>(values: readonly T[]) => values.map((value) => ({ value, label: value }));
const typeOptions = choices<OperationType>(['accrual', 'redemption', 'hold', 'adjustment']);
const statusOptions = choices<OperationStatus>(['completed', 'pending', 'failed']);

export function OperationTypeFilter(props: {
  value: OperationType | undefined;
  onChange: (type: OperationType | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by type"
      allLabel="All types"
      options={typeOptions}
      className={cn('w-36', props.value && 'capitalize')}
      itemClassName="capitalize"
      {...props}
    />
  );
}

export function OperationStatusFilter(props: {
  value: OperationStatus | undefined;
  onChange: (status: OperationStatus | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by status"
      allLabel="All statuses"
      options={statusOptions}
      className={cn('w-36', props.value && 'capitalize')}
      itemClassName="capitalize"
      {...props}
    />
  );
}
