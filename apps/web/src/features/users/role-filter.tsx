import type { Role } from '@loyalty/contracts';
import { FilterSelect } from '@/components/ui/option-select';
import { roleOptions } from './role-labels';

export function RoleFilter(props: { value: Role | undefined; onChange: (role: Role | undefined) => void }) {
  return (
    <FilterSelect
      label="Filter by role"
      allLabel="All roles"
      options={roleOptions}
      className="w-40"
      {...props}
    />
  );
}
