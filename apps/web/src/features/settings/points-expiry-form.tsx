import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import { pointsExpirySchema, toPointsExpiryValues } from './settings-form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

const fields = [
  {
    name: 'expiryDays',
    label: 'Expiry (days)',
    placeholder: '365',
    hint: 'How long earned points stay spendable once available. Not set: they never expire.',
  },
  {
    name: 'pendingDays',
    label: 'Pending period (days)',
    placeholder: '14',
    hint: 'How long earned points wait before they can be spent (a return window). 0: at once.',
  },
] as const;

/** Issue 9's 'Points Expiry' card, beside the holds: same save behaviour; applies to points earned afterwards. */
export function PointsExpiryForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(pointsExpirySchema, toPointsExpiryValues, props, {
    'points.expiry_days': 'expiryDays',
    'points.pending_days': 'pendingDays',
  });
  const { form } = settingsForm;

  return (
    <SettingsFormCard
      title="Points Expiry"
      description={
        props.canEdit
          ? 'Empty fields keep their current value. Changes date the points earned from now on.'
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
