import type { PosKeyStatus } from '@loyalty/contracts';
import { Badge } from '@/components/ui/badge';
import { FilterSelect } from '@/components/ui/option-select';
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

export function PosKeyStatusFilter(props: {
  value: PosKeyStatus | undefined;
  onChange: (status: PosKeyStatus | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by status"
      allLabel="All statuses"
      options={posKeyStatusOptions}
      className="w-36"
      {...props}
    />
  );
}
