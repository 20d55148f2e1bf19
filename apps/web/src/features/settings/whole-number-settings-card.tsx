import type { Settings, UpdateSettingsRequest } from '@loyalty/contracts';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import type { FieldAliases } from '@/lib/form';
import {
  READ_ONLY_DESCRIPTION,
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  settingsPlaceholder,
  useSettingsForm,
} from './settings-form-card';

type TextValues = Record<string, string>;

export interface WholeNumberField<Values extends TextValues> {
  name: Path<Values> & keyof Values;
  label: string;
  /** The example an administrator sees in an empty input (spec section 9); never shown to those who read. */
  placeholder: string;
  /** What an unset value means, shown instead to those who only read it, in the summary's words. */
  unset: string;
  hint: string;
  /** The smallest value the contract takes (0 unless said). */
  min?: number;
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

/** A settings card of whole numbers (≥ 0 unless a field says): one input per field, the card's save behaviour. */
export function WholeNumberSettingsCard<Values extends TextValues>({
  title,
  editDescription,
  fields,
  schema,
  toValues,
  aliases,
  ...state
}: WholeNumberSettingsCardProps<Values>) {
  // Each field is sent only when its input changed (SentBy).
  const sentBy = Object.fromEntries(Object.entries(aliases).map(([path, name]) => [path, name && [name]]));
  const settingsForm = useSettingsForm(schema, toValues, state, aliases, sentBy);
  const { form } = settingsForm;
  return (
    <SettingsFormCard
      title={title}
      description={state.canEdit ? editDescription : READ_ONLY_DESCRIPTION}
      state={state}
      settingsForm={settingsForm}
      submitLabel="Save Settings"
    >
      {fields.map((field) => (
        <WholeNumberInput key={field.name} form={form} field={field} state={state} />
      ))}
    </SettingsFormCard>
  );
}

/**
 * One whole-number settings input (≥ its min) with its label, hint and message; read-only for non-administrators,
 * who see an unset value as what it means ('Never'), not as the administrator's example number.
 */
export function WholeNumberInput<Values extends FieldValues>({
  form,
  field,
  state,
  onTyped,
}: {
  form: UseFormReturn<Values, unknown, UpdateSettingsRequest>;
  field: {
    name: Path<Values>;
    label: string;
    placeholder: string;
    unset: string;
    hint: string;
    min?: number;
  };
  state: SettingsFormProps;
  /** Called with each value typed (the expiry card clears 'Points never expire' by it). */
  onTyped?: (value: string) => void;
}) {
  return (
    <FormField
      id={`settings-${field.name}`}
      label={field.label}
      error={form.formState.errors[field.name]?.message?.toString()}
      hint={field.hint}
    >
      {(control) => (
        <Input
          type="number"
          inputMode="numeric"
          min={field.min ?? 0}
          step={1}
          placeholder={settingsPlaceholder(state, field)}
          {...form.register(field.name, { onChange: (event) => onTyped?.(event.target.value) })}
          {...settingsInputProps(state)}
          {...control}
        />
      )}
    </FormField>
  );
}
