import type { EventType } from '@loyalty/contracts';
import { FieldError } from '@/components/feedback/field-error';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { eventTypeGroups } from './webhooks-api';

/** The event types an endpoint hears, one checkbox each, in a fieldset whose message sits under it. */
export function EventTypeCheckboxes({
  id,
  value,
  onChange,
  error,
}: {
  id: string;
  value: readonly EventType[];
  onChange: (types: EventType[]) => void;
  error?: string;
}) {
  const toggle = (type: EventType, checked: boolean) =>
    onChange(checked ? [...value, type] : value.filter((t) => t !== type));
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={!!error}
    >
      <legend className="mb-2 text-sm font-medium">Events</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {eventTypeGroups.map((group) => (
          <div key={group.title} className="grid content-start gap-1.5">
            <p className="text-xs text-muted-foreground">{group.title}</p>
            {group.types.map((type) => (
              <div key={type} className="flex items-center gap-2">
                <Checkbox
                  id={`${id}-${type}`}
                  checked={value.includes(type)}
                  onCheckedChange={(next) => toggle(type, next === true)}
                />
                <Label htmlFor={`${id}-${type}`} className="font-mono text-xs font-normal">
                  {type}
                </Label>
              </div>
            ))}
          </div>
        ))}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}
