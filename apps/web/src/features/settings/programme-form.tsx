import type { Settings } from '@loyalty/contracts';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { setServerFieldErrors, useZodForm } from '@/lib/form';
import { programmeSchema, toProgrammeValues, useSaveSettings } from './settings-form';

const ID = 'settings-currency';

/** `programme.currency`: the currency receipts (and later Finance) show money in. */
export function ProgrammeForm({
  settings,
  loading,
  canEdit,
}: {
  settings: Settings | undefined;
  loading: boolean;
  canEdit: boolean;
}) {
  const form = useZodForm(programmeSchema, {
    defaultValues: toProgrammeValues(settings),
    values: toProgrammeValues(settings),
    resetOptions: { keepDirtyValues: true },
  });
  const mutation = useSaveSettings((saved) => form.reset(toProgrammeValues(saved)));
  const error = form.formState.errors.currency?.message;
  const edited = Boolean(form.formState.dirtyFields.currency);
  const currency = form.register('currency');

  const onSubmit = form.handleSubmit((body) => {
    if (!canEdit || mutation.isPending) return;
    mutation.mutate(body, {
      onError: (failure) => setServerFieldErrors(form, failure, { 'programme.currency': 'currency' }),
    });
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Programme</CardTitle>
        <CardDescription>
          {canEdit
            ? 'The currency receipts show prices in.'
            : 'Receipts show prices in this currency; an administrator sets it.'}
        </CardDescription>
      </CardHeader>
      <form noValidate onSubmit={onSubmit} aria-label="Programme" className="contents">
        <CardContent className="grid gap-2">
          <Label htmlFor={ID}>Currency</Label>
          <Input
            id={ID}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={3}
            placeholder="EUR"
            {...currency}
            // Codes are upper case: show what will be saved while it is typed.
            onChange={(event) => {
              event.target.value = event.target.value.toUpperCase();
              return currency.onChange(event);
            }}
            readOnly={!canEdit}
            className={canEdit ? undefined : 'cursor-default bg-muted/60 dark:bg-muted/40'}
            disabled={loading}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${ID}-hint${error ? ` ${ID}-error` : ''}`}
          />
          <p id={`${ID}-hint`} className="text-sm text-muted-foreground">
            A three-letter ISO 4217 code, such as EUR, USD or GBP.
          </p>
          <FieldError id={`${ID}-error`} message={error} />
        </CardContent>
        {canEdit && (
          <CardFooter className="justify-end gap-2">
            {edited && (
              <Button
                variant="outline"
                onClick={() => form.reset(toProgrammeValues(settings))}
                disabled={mutation.isPending}
              >
                Reset
              </Button>
            )}
            <Button type="submit" disabled={loading || mutation.isPending}>
              {mutation.isPending ? 'Saving...' : 'Save Currency'}
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}
