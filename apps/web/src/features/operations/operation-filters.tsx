import type { OperationStatus, OperationType } from '@loyalty/contracts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

const ALL = 'all';
// Spec section 2 names the filter choices in these words and this order.
const typeOptions: readonly OperationType[] = ['accrual', 'redemption', 'hold', 'adjustment'];
const statusOptions: readonly OperationStatus[] = ['completed', 'pending', 'failed'];

function ChoiceFilter<T extends string>({
  label,
  allLabel,
  options,
  value,
  onChange,
}: {
  label: string;
  allLabel: string;
  options: readonly T[];
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <Select value={value ?? ALL} onValueChange={(next) => onChange(next === ALL ? undefined : (next as T))}>
      <SelectTrigger aria-label={label} className={cn('h-8 w-36', value && 'capitalize')}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>{allLabel}</SelectItem>
        {options.map((option) => (
          <SelectItem key={option} value={option} className="capitalize">
            {option}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}

export function OperationTypeFilter(props: {
  value: OperationType | undefined;
  onChange: (type: OperationType | undefined) => void;
}) {
  return <ChoiceFilter label="Filter by type" allLabel="All types" options={typeOptions} {...props} />;
}

export function OperationStatusFilter(props: {
  value: OperationStatus | undefined;
  onChange: (status: OperationStatus | undefined) => void;
}) {
  return <ChoiceFilter label="Filter by status" allLabel="All statuses" options={statusOptions} {...props} />;
}
