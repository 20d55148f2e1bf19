import { type AuditTargetType, auditTargetLabels, auditTargetTypes } from '@loyalty/contracts';
import { useEffect, useState } from 'react';
import { Input } from '@/components/ui/input';
import { FilterSelect } from '@/components/ui/option-select';
import { useDebouncedValue } from '@/lib/use-debounced-value';

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

const typeOptions = auditTargetTypes.map((type) => ({ value: type, label: auditTargetLabels[type] }));

export function AuditTypeFilter(props: {
  value: AuditTargetType | undefined;
  onChange: (type: AuditTargetType | undefined) => void;
}) {
  return (
    <FilterSelect
      label="Filter by type"
      allLabel="All types"
      options={typeOptions}
      className="w-40"
      {...props}
    />
  );
}
