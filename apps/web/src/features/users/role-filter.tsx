import type { Role } from '@loyalty/contracts';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { roleOptions } from './role-labels';

const ALL = 'all';

export function RoleFilter({
  value,
  onChange,
}: {
  value: Role | undefined;
  onChange: (role: Role | undefined) => void;
}) {
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? undefined : (next as Role))}
    >
      <SelectTrigger aria-label="Filter by role" className="h-8 w-40">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All roles</SelectItem>
        {roleOptions.map((option) => (
          <SelectItem key={option.value} value={option.value}>
            {option.label}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
