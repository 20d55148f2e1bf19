import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import { type MouseEvent, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { type DefaultValues, type FieldValues, type UseFormReturn, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { useLeaveGuard } from '@/components/forms/use-leave-guard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { type FieldAliases, setServerFieldErrors, useZodForm } from '@/lib/form';
import { onlyChanged, type SentBy, useSaveSettings } from './settings-form';

export interface SettingsFormProps {
  settings: Settings | undefined;
  loading: boolean;
  canEdit: boolean;
}

/**
 * The inputs follow the server's settings until the admin types: when new settings arrive, a field still
 * showing what was stored before takes the new value, and a field the admin changed keeps the change.
 * (react-hook-form's `values` with keepDirtyValues did this from its dirty flags, which a save left set:
 * the saved field then stopped following the server, and Reset stayed on a card showing the saved values.)
 */
function useFollowSettings<Input extends FieldValues>(
  form: UseFormReturn<Input, unknown, UpdateSettingsRequest>,
  stored: Input,
) {
  const previous = useRef(stored);
  useEffect(() => {
    const before = previous.current;
    if (before === stored) return;
    previous.current = stored;
    const typed = form.getValues();
    const next = Object.fromEntries(
      Object.entries(stored).map(([name, value]) => [
        name,
        Object.is(typed[name], before[name]) ? value : typed[name],
      ]),
    );
    form.reset(next as Input, { keepErrors: true });
  }, [form, stored]);
}

/**
 * One settings card's form, following the server's settings until the admin types (useFollowSettings);
 * edited while its inputs differ from what is stored, Reset drops the edits. `aliases` place the server's
 * field paths ('holds.ttl_minutes') on the inputs. The fields in `sentBy` are sent only when changed; a
 * successful save shows the server's answer (another administrator's changes with it) as not edited.
 */
export function useSettingsForm<Input extends FieldValues>(
  schema: z.ZodType<UpdateSettingsRequest, Input>,
  toValues: (settings: Settings | undefined) => Input,
  { settings, canEdit }: SettingsFormProps,
  aliases: FieldAliases<Input>,
  sentBy: SentBy<Input> = {},
) {
  const stored = useMemo(() => toValues(settings), [toValues, settings]);
  const form = useZodForm(schema, {
    // DefaultValues<Input> is Input made deep-partial, which TypeScript cannot see for a generic Input.
    defaultValues: stored as DefaultValues<Input>,
  });
  useFollowSettings(form, stored);
  const mutation = useSaveSettings((saved) => form.reset(toValues(saved)));
  const current = useWatch({ control: form.control });
  const edited = Object.keys(stored).some((key) => !Object.is(current[key], stored[key]));
  // Typed and not saved, or being saved: reloading or closing the tab asks first.
  useLeaveGuard(edited || mutation.isPending);
  const onSubmit = form.handleSubmit((body) => {
    if (!canEdit || mutation.isPending) return;
    const typed = form.getValues();
    // A card with `sentBy` and nothing changed sends {}: the server changes nothing and answers the settings,
    // which the card then shows, with the usual toast. (Currency and time zone always send their one field.)
    const sent = onlyChanged(body, sentBy, (name) => !Object.is(typed[name], stored[name]));
    mutation.mutate(sent, { onError: (error) => setServerFieldErrors(form, error, aliases) });
  });
  return {
    form,
    onSubmit,
    pending: mutation.isPending,
    edited,
    reset: () => form.reset(stored),
  };
}

/** What the number cards tell those who may only read them. */
export const READ_ONLY_DESCRIPTION = 'Only administrators can change these settings.';

/** Props of a settings input: read-only (and looking it) for those who may not edit, disabled while loading. */
export function settingsInputProps({ canEdit, loading }: SettingsFormProps) {
  return {
    readOnly: !canEdit,
    className: canEdit ? undefined : 'cursor-default bg-muted/60 dark:bg-muted/40',
    disabled: loading,
  };
}

/**
 * An empty settings input's placeholder. An administrator sees the example of spec section 9 ('3' cards);
 * anyone else reads the field, and an example there looked like the value in force: they see what an unset
 * value means, in the Card Management summary's words ('No limit set'), and nothing while the settings load.
 */
export function settingsPlaceholder(
  { canEdit, loading }: SettingsFormProps,
  field: { placeholder: string; unset: string },
): string | undefined {
  if (canEdit) return field.placeholder;
  return loading ? undefined : field.unset;
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
  const save = useRef<HTMLButtonElement>(null);
  // Reset leaves once the form is clean again: pressed from the keyboard, focus goes on to the save button
  // beside it instead of falling to <body> with it.
  const resetKeepingFocus = (event: MouseEvent<HTMLButtonElement>) => {
    const hadFocus = document.activeElement === event.currentTarget;
    reset();
    if (hadFocus) save.current?.focus();
  };
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
              <Button variant="outline" onClick={resetKeepingFocus} pending={pending}>
                Reset
              </Button>
            )}
            <Button ref={save} type="submit" disabled={state.loading} pending={pending}>
              {pending ? 'Saving...' : submitLabel}
            </Button>
          </CardFooter>
        )}
      </form>
    </Card>
  );
}
