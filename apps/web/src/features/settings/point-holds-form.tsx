import type { Settings } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { saveSettings, settingsKeys } from './settings-api';
import {
  type SettingsErrors,
  type SettingsValues,
  toSettingsValues,
  toUpdateSettingsRequest,
  validateSettings,
} from './settings-form';

interface FieldSpec {
  name: keyof SettingsValues;
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
  const queryClient = useQueryClient();
  // null: show what the server has; an object: what the admin is typing.
  const [draft, setDraft] = useState<SettingsValues | null>(null);
  const [errors, setErrors] = useState<SettingsErrors>({});
  const values = draft ?? toSettingsValues(settings);

  const mutation = useMutation({
    mutationFn: saveSettings,
    meta: { errorTitle: 'Save failed' },
    onSuccess: (saved) => {
      queryClient.setQueryData(settingsKeys.all, saved);
      setDraft(null);
      toast.success('Settings saved successfully');
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!canEdit || mutation.isPending) return;
    const found = validateSettings(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(toUpdateSettingsRequest(values));
  };

  const set = (name: keyof SettingsValues, value: string) => {
    setDraft({ ...values, [name]: value });
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

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
            const error = errors[field.name];
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
                  value={values[field.name]}
                  onChange={(e) => set(field.name, e.target.value)}
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
            {draft && (
              <Button
                variant="outline"
                onClick={() => {
                  setDraft(null);
                  setErrors({});
                }}
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
