import { type AuditTargetType, auditTargetLabels, auditTargetTypes } from '@loyalty/contracts';
import { XIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FilterSelect } from '@/components/ui/option-select';
import { keepFocusNear } from '@/lib/focus-fallback';
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

/** The target a link opened the log with (`?targetId=`): shown, and removed with its button. */
export function AuditTargetFilter({ targetId, onRemove }: { targetId: string; onRemove: () => void }) {
  return (
    <span className="inline-flex h-8 max-w-full items-center gap-1 rounded-md border bg-muted/50 pr-0.5 pl-2 text-sm">
      <span className="min-w-0 truncate" title={targetId}>
        Target ID: <span className="font-mono text-xs">{targetId}</span>
      </span>
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7 shrink-0"
        aria-label={`Remove filter Target ID ${targetId}`}
        onClick={(event) => {
          // The button goes with its filter: focus stays near it, not on <body>.
          keepFocusNear(event.currentTarget);
          onRemove();
        }}
      >
        <XIcon aria-hidden="true" />
      </Button>
    </span>
  );
}
