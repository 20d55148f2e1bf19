import type { PosKeyStatus } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { posKeyStatusOptions } from './pos-keys-api';

export function PosKeyStatusBadge({ status }: { status: PosKeyStatus }) {
  return status === 'active' ? (
    <Badge variant="success">Active</Badge>
  ) : (
    <Badge variant="outline" className="text-muted-foreground">
      Inactive
    </Badge>
  );
}

const ALL = 'all';

export function PosKeyStatusFilter({
  value,
  onChange,
}: {
  value: PosKeyStatus | undefined;
  onChange: (status: PosKeyStatus | undefined) => void;
}) {
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? undefined : (next as PosKeyStatus))}
    >
      <SelectTrigger aria-label="Filter by status" className="h-8 w-36">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All statuses</SelectItem>
        {posKeyStatusOptions.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
