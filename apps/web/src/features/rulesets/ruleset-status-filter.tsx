import type { RulesetStatus } from '@loyalty/contracts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

const ALL = 'all';
// Spec section 2: the filter's choices, in its order; Retired rulesets (issue 15.3) last.
const statuses: readonly RulesetStatus[] = ['Active', 'Draft', 'Scheduled', 'Retired'];

export function RulesetStatusFilter({
  value,
  onChange,
}: {
  value: RulesetStatus | undefined;
  onChange: (status: RulesetStatus | undefined) => void;
}) {
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? undefined : (next as RulesetStatus))}
    >
      <SelectTrigger aria-label="Filter by status" className="h-8 w-40">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All statuses</SelectItem>
        {statuses.map((status) => (
          <SelectItem key={status} value={status}>
            {status}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
