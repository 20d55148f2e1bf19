import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import { programmeSchema, toProgrammeValues } from './settings-form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

/** `programme.currency`: the currency receipts (and later Finance) show money in. */
export function ProgrammeForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(programmeSchema, toProgrammeValues, props, {
    'programme.currency': 'currency',
  });
  const { form } = settingsForm;
  const currency = form.register('currency');

  return (
    <SettingsFormCard
      title="Programme"
      description={
        props.canEdit
          ? 'The currency receipts show prices in.'
          : 'Receipts show prices in this currency; an administrator sets it.'
      }
      state={props}
      settingsForm={settingsForm}
      submitLabel="Save Currency"
    >
      <FormField
        id="settings-currency"
        label="Currency"
        error={form.formState.errors.currency?.message}
        hint="A three-letter ISO 4217 code, such as EUR, USD or GBP."
      >
        {(control) => (
          <Input
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
            {...settingsInputProps(props)}
            {...control}
          />
        )}
      </FormField>
    </SettingsFormCard>
  );
}
