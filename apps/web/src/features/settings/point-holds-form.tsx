import type { Settings } from '@loyalty/contracts';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { setServerFieldErrors, useZodForm } from '@/lib/form';
import { pointHoldsSchema, toPointHoldsValues, useSaveSettings } from './settings-form';

type FieldName = 'ttlMinutes' | 'cardsLimit';

interface FieldSpec {
  name: FieldName;
  label: string;
  placeholder: string;
  hint: string;
}

// Spec section 9: placeholder hints 60 minutes and 3 cards.
const fields: FieldSpec[] = [
  {
    name: 'ttlMinutes',
    label: 'Holds TTL (minutes)',
    placeholder: '60',
    hint: 'How long a POS hold keeps points reserved before it expires.',
  },
  {
    name: 'cardsLimit',
    label: 'Cards per Account',
    placeholder: '3',
    hint: 'How many cards that are not blocked one account may have.',
  },
];

/** The 'Point Holds Configuration' form; admins edit it, everyone else reads it. */
export function PointHoldsForm({
  settings,
  loading,
  canEdit,
}: {
  settings: Settings | undefined;
  loading: boolean;
  canEdit: boolean;
}) {
  // `values` follows the server's settings until the admin types (then the draft is kept).
  const form = useZodForm(pointHoldsSchema, {
    defaultValues: toPointHoldsValues(settings),
    values: toPointHoldsValues(settings),
    resetOptions: { keepDirtyValues: true },
  });
  const mutation = useSaveSettings((saved) => form.reset(toPointHoldsValues(saved)));
  // Edited fields survive new settings from the server (keepDirtyValues); Reset drops the edits.
  const edited = Object.keys(form.formState.dirtyFields).length > 0;

  const onSubmit = form.handleSubmit((body) => {
    if (canEdit && !mutation.isPending) {
      mutation.mutate(body, {
        onError: (error) =>
          setServerFieldErrors(form, error, {
            'holds.ttl_minutes': 'ttlMinutes',
            'cards.limit_per_account': 'cardsLimit',
          }),
      });
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Point Holds Configuration</CardTitle>
        <CardDescription>
          {canEdit
            ? 'Empty fields keep their current value.'
            : 'Only administrators can change these settings.'}
        </CardDescription>
      </CardHeader>
      <form noValidate onSubmit={onSubmit} aria-label="Point Holds Configuration" className="contents">
        <CardContent className="grid gap-5">
          {fields.map((field) => {
            const id = `settings-${field.name}`;
            const error = form.formState.errors[field.name]?.message;
            return (
              <div key={field.name} className="grid gap-2">
                <Label htmlFor={id}>{field.label}</Label>
                <Input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  placeholder={field.placeholder}
                  {...form.register(field.name)}
                  readOnly={!canEdit}
                  className={canEdit ? undefined : 'cursor-default bg-muted/60 dark:bg-muted/40'}
                  disabled={loading}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
                />
                <p id={`${id}-hint`} className="text-sm text-muted-foreground">
                  {field.hint}
                </p>
                <FieldError id={`${id}-error`} message={error} />
              </div>
            );
          })}
        </CardContent>
        {canEdit && (
          <CardFooter className="justify-end gap-2">
            {edited && (
              <Button
                variant="outline"
                onClick={() => form.reset(toPointHoldsValues(settings))}
                disabled={mutation.isPending}
              >
                Reset
              </Button>
            )}
            <Button type="submit" disabled={loading || mutation.isPending}>
              {mutation.isPending ? 'Saving...' : 'Save Settings'}
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}
