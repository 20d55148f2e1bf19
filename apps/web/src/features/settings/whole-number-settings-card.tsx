import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import type { Path } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import type { FieldAliases } from '@/lib/form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

type TextValues = Record<string, string>;

export interface WholeNumberField<Values extends TextValues> {
  name: Path<Values> & keyof Values;
  label: string;
  placeholder: string;
  hint: string;
}

export interface WholeNumberSettingsCardProps<Values extends TextValues> extends SettingsFormProps {
  title: string;
  /** What an administrator is told above the inputs; everyone else reads that only administrators edit. */
  editDescription: string;
  fields: readonly WholeNumberField<Values>[];
  schema: z.ZodType<UpdateSettingsRequest, Values>;
  toValues: (settings: Settings | undefined) => Values;
  /** The server's field paths ('holds.ttl_minutes') for each input, so a 400 lands under the right one. */
  aliases: FieldAliases<Values>;
}

/** A settings card of whole numbers ≥ 0 (holds, expiry): one input per field, the card's save behaviour. */
export function WholeNumberSettingsCard<Values extends TextValues>({
  title,
  editDescription,
  fields,
  schema,
  toValues,
  aliases,
  ...state
}: WholeNumberSettingsCardProps<Values>) {
  const settingsForm = useSettingsForm(schema, toValues, state, aliases);
  const { form } = settingsForm;
  return (
    <SettingsFormCard
      title={title}
      description={state.canEdit ? editDescription : 'Only administrators can change these settings.'}
      state={state}
      settingsForm={settingsForm}
      submitLabel="Save Settings"
    >
      {fields.map((field) => (
        <FormField
          key={field.name}
          id={`settings-${field.name}`}
          label={field.label}
          error={form.formState.errors[field.name]?.message?.toString()}
          hint={field.hint}
        >
          {(control) => (
            <Input
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              placeholder={field.placeholder}
              {...form.register(field.name)}
              {...settingsInputProps(state)}
              {...control}
            />
          )}
        </FormField>
      ))}
    </SettingsFormCard>
  );
}
