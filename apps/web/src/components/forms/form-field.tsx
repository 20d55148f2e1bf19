import type { ReactNode } from 'react';
import { FieldError } from '@/components/feedback/field-error';
import { Label } from '@/components/ui/label';

/** What the input of a FormField spreads: its id and its link to the hint and the message. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * One labelled input of a console form: the label, the input (`children` spreads the props it is given),
 * an optional hint and the field's message, linked by aria-describedby. `invalid` marks an input whose
 * message is said elsewhere (once above the fields, see formLevelMessage).
 */
export function FormField({
  id,
  label,
  error,
  invalid = false,
  hint,
  children,
}: {
  id: string;
  label: ReactNode;
  error?: string;
  invalid?: boolean;
  hint?: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
}) {
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children({
        id,
        'aria-invalid': error || invalid ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-muted-foreground">
          {hint}
        </p>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}
