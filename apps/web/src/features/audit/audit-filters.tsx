import { type AuditTargetType, auditTargetLabels, auditTargetTypes } from '@loyalty/contracts';
import { useEffect, useState } from 'react';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useDebouncedValue } from '@/lib/use-debounced-value';

const ALL = 'all';

export function AuditUserFilter({ onChange }: { onChange: (username: string | undefined) => void }) {
  const [value, setValue] = useState('');
  const debounced = useDebouncedValue(value.trim());
  useEffect(() => onChange(debounced || undefined), [debounced, onChange]);
  return (
    <Input
      aria-label="Filter by user"
      placeholder="Username"
      autoCapitalize="none"
      spellCheck={false}
      value={value}
      onChange={(event) => setValue(event.target.value)}
      className="h-8 w-full sm:w-40"
    />
  );
}

export function AuditTypeFilter({
  value,
  onChange,
}: {
  value: AuditTargetType | undefined;
  onChange: (type: AuditTargetType | undefined) => void;
}) {
  return (
    <Select
      value={value ?? ALL}
      onValueChange={(next) => onChange(next === ALL ? undefined : (next as AuditTargetType))}
    >
      <SelectTrigger aria-label="Filter by type" className="h-8 w-40">
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        <SelectItem value={ALL}>All types</SelectItem>
        {auditTargetTypes.map((type) => (
          <SelectItem key={type} value={type}>
            {auditTargetLabels[type]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
