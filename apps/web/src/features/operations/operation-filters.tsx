import type { OperationStatus, OperationType } from '@loyalty/contracts';
import { FilterSelect, type SelectOption } from '@/components/ui/option-select';
import { cn } from '@/lib/utils';

// Spec section 2 names the filter choices in these words and this order; issue 9 adds expiry.
const choices = <T extends string>(values: readonly T[]) => values.map((value) => ({ value, label: value }));
const typeOptions = choices<OperationType>(['accrual', 'redemption', 'hold', 'adjustment', 'expiry']);
const statusOptions = choices<OperationStatus>(['completed', 'pending', 'failed']);

/** Operation types and statuses are shown in the spec's lower-case words, capitalised. */
function CapitalizedFilter<T extends string>(props: {
  label: string;
  allLabel: string;
  options: readonly SelectOption<T>[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <FilterSelect {...props} className={cn('w-36', props.value && 'capitalize')} itemClassName="capitalize" />
  );
}

export function OperationTypeFilter(props: {
  value: OperationType | undefined;
  onChange: (type: OperationType | undefined) => void;
}) {
  return <CapitalizedFilter label="Filter by type" allLabel="All types" options={typeOptions} {...props} />;
}

export function OperationStatusFilter(props: {
  value: OperationStatus | undefined;
  onChange: (status: OperationStatus | undefined) => void;
}) {
  return (
    <CapitalizedFilter label="Filter by status" allLabel="All statuses" options={statusOptions} {...props} />
  );
}
