import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import type { ReactNode } from 'react';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { type FieldAliases, setServerFieldErrors, useZodForm } from '@/lib/form';
import { useSaveSettings } from './settings-form';

export interface SettingsFormProps {
  settings: Settings | undefined;
  loading: boolean;
  canEdit: boolean;
}

/**
 * One settings card's form. `values` follows the server's settings until the admin types: edited fields
 * survive new settings from the server (keepDirtyValues), Reset drops the edits. `aliases` place the
 * server's field paths ('holds.ttl_minutes') on the inputs.
 */
export function useSettingsForm<Input extends FieldValues>(
  schema: z.ZodType<UpdateSettingsRequest, Input>,
  toValues: (settings: Settings | undefined) => Input,
  { settings, canEdit }: SettingsFormProps,
  aliases: FieldAliases<Input>,
) {
  const form = useZodForm(schema, {
    // DefaultValues<Input> is Input made deep-partial, which TypeScript cannot see for a generic Input.
    defaultValues: toValues(settings) as DefaultValues<Input>,
    values: toValues(settings),
    resetOptions: { keepDirtyValues: true },
  });
  const mutation = useSaveSettings((saved) => form.reset(toValues(saved)));
  const onSubmit = form.handleSubmit((body) => {
    if (!canEdit || mutation.isPending) return;
    mutation.mutate(body, { onError: (error) => setServerFieldErrors(form, error, aliases) });
  });
  return {
    form,
    onSubmit,
    pending: mutation.isPending,
    edited: Object.keys(form.formState.dirtyFields).length > 0,
    reset: () => form.reset(toValues(settings)),
  };
}

/** Props of a settings input: read-only (and looking it) for those who may not edit, disabled while loading. */
export function settingsInputProps({ canEdit, loading }: SettingsFormProps) {
  return {
    readOnly: !canEdit,
    className: canEdit ? undefined : 'cursor-default bg-muted/60 dark:bg-muted/40',
    disabled: loading,
  };
}

/** A settings card: its form, and Reset (once edited) and the save button for administrators only. */
export function SettingsFormCard({
  title,
  description,
  state,
  settingsForm,
  submitLabel,
  children,
}: {
  title: string;
  description: string;
  state: SettingsFormProps;
  settingsForm: Pick<ReturnType<typeof useSettingsForm>, 'onSubmit' | 'pending' | 'edited' | 'reset'>;
  submitLabel: string;
  children: ReactNode;
}) {
  const { onSubmit, pending, edited, reset } = settingsForm;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={onSubmit} aria-label={title} className="contents">
        <CardContent className="grid gap-5">{children}</CardContent>
        {state.canEdit && (
          <CardFooter className="justify-end gap-2">
            {edited && (
              <Button variant="outline" onClick={reset} disabled={pending}>
                Reset
              </Button>
            )}
            <Button type="submit" disabled={state.loading || pending}>
              {pending ? 'Saving...' : submitLabel}
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}
