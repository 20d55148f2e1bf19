import type { RulesetStatus } from '@loyalty/contracts';
import { FilterSelect } from '@/components/ui/option-select';

// Spec section 2: the filter's choices, in its order; Retired rulesets (issue 15.3) last.
const statuses = (['Active', 'Draft', 'Scheduled', 'Retired'] as const).map((status) => ({
  value: status satisfies RulesetStatus,
  label: status,
}));

export function RulesetStatusFilter(props: {
  value: RulesetStatus | undefined;
  onChange: (status: RulesetStatus | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by status"
      allLabel="All statuses"
      options={statuses}
      className="w-40"
      {...props}
    />
  );
}
