import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import { pointHoldsSchema, toPointHoldsValues } from './settings-form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

// Spec section 9: placeholder hints 60 minutes and 3 cards.
const fields = [
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
] as const;

/** The 'Point Holds Configuration' form; admins edit it, everyone else reads it. */
export function PointHoldsForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(pointHoldsSchema, toPointHoldsValues, props, {
    'holds.ttl_minutes': 'ttlMinutes',
    'cards.limit_per_account': 'cardsLimit',
  });
  const { form } = settingsForm;

  return (
    <SettingsFormCard
      title="Point Holds Configuration"
      description={
        props.canEdit
          ? 'Empty fields keep their current value.'
          : 'Only administrators can change these settings.'
      }
      state={props}
      settingsForm={settingsForm}
      submitLabel="Save Settings"
    >
      {fields.map((field) => (
        <FormField
          key={field.name}
          id={`settings-${field.name}`}
          label={field.label}
          error={form.formState.errors[field.name]?.message}
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
              {...settingsInputProps(props)}
              {...control}
            />
          )}
        </FormField>
      ))}
    </SettingsFormCard>
  );
}
