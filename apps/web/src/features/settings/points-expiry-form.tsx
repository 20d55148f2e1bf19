import { Controller } from 'react-hook-form';
import { FormField } from '@/components/forms/form-field';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { pointsExpirySchema, toPointsExpiryValues } from './settings-form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

const aliases = { 'points.expiry_days': 'expiryDays', 'points.pending_days': 'pendingDays' } as const;

/**
 * Issue 9's 'Points Expiry' card, beside the holds: same save behaviour; applies to points earned afterwards.
 * 'Points never expire' takes a set expiry back (the empty input keeps the stored value, as every settings
 * input does); typing days clears it, ticking it clears the days.
 */
export function PointsExpiryForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(pointsExpirySchema, toPointsExpiryValues, props, aliases);
  const { form } = settingsForm;
  const { errors } = form.formState;
  const input = settingsInputProps(props);
  const expiry = form.register('expiryDays', {
    onChange: (event: { target: { value: string } }) => {
      if (event.target.value.trim() !== '') form.setValue('neverExpire', false);
    },
  });
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
      <div className="grid gap-3">
        <FormField
          id="settings-expiryDays"
          label="Expiry (days)"
          error={errors.expiryDays?.message}
          hint="How long earned points stay spendable once available. Not set: they never expire."
        >
          {(control) => (
            <Input
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              placeholder="365"
              {...expiry}
              {...input}
              {...control}
            />
          )}
        </FormField>
        <Controller
          control={form.control}
          name="neverExpire"
          render={({ field }) => (
            <div className="flex items-center gap-2">
              <Checkbox
                id="settings-neverExpire"
                checked={field.value}
                disabled={!props.canEdit || props.loading}
                onCheckedChange={(next) => {
                  field.onChange(next === true);
                  if (next === true) form.setValue('expiryDays', '', { shouldValidate: true });
                }}
                onBlur={field.onBlur}
                ref={field.ref}
              />
              <Label htmlFor="settings-neverExpire">Points never expire</Label>
            </div>
          )}
        />
      </div>
      <FormField
        id="settings-pendingDays"
        label="Pending period (days)"
        error={errors.pendingDays?.message}
        hint="How long earned points wait before they can be spent (a return window). 0: at once."
      >
        {(control) => (
          <Input
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="14"
            {...form.register('pendingDays')}
            {...input}
            {...control}
          />
        )}
      </FormField>
    </SettingsFormCard>
  );
}
