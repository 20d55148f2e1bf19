import { Controller } from 'react-hook-form';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { expiryText, pendingText } from './card-management-summary';
import { pointsExpirySchema, toPointsExpiryValues } from './settings-form';
import {
  READ_ONLY_DESCRIPTION,
  SettingsFormCard,
  type SettingsFormProps,
  useSettingsForm,
} from './settings-form-card';
import { WholeNumberInput } from './whole-number-settings-card';

const aliases = { 'points.expiry_days': 'expiryDays', 'points.pending_days': 'pendingDays' } as const;
// Sent only when changed: the box starts ticked on a programme without expiry, and unchanged it would send
// expiry_days null with every save, over an expiry another administrator set meanwhile.
const sentBy = {
  'points.expiry_days': ['expiryDays', 'neverExpire'],
  'points.pending_days': ['pendingDays'],
} as const;

const expiryField = {
  name: 'expiryDays',
  label: 'Expiry (days)',
  placeholder: '365',
  unset: expiryText(null),
  hint: 'How long earned points stay spendable once available. Not set: they never expire.',
} as const;

const pendingField = {
  name: 'pendingDays',
  label: 'Pending period (days)',
  placeholder: '14',
  unset: pendingText(null),
  hint: 'How long earned points wait before they can be spent (a return window). 0: at once.',
} as const;

/**
 * Issue 9's 'Points Expiry' card, beside the holds: same save behaviour; applies to points earned afterwards.
 * 'Points never expire' takes a set expiry back (the empty input keeps the stored value, as every settings
 * input does); typing days clears it, ticking it clears the days.
 */
export function PointsExpiryForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(pointsExpirySchema, toPointsExpiryValues, props, aliases, sentBy);
  const { form } = settingsForm;
  return (
    <SettingsFormCard
      title="Points Expiry"
      description={
        props.canEdit
          ? 'Empty fields keep their current value. Changes date the points earned from now on.'
          : READ_ONLY_DESCRIPTION
      }
      state={props}
      settingsForm={settingsForm}
      submitLabel="Save Settings"
    >
      <div className="grid gap-3">
        <WholeNumberInput
          form={form}
          field={expiryField}
          state={props}
          onTyped={(value) => {
            if (value.trim() !== '') form.setValue('neverExpire', false);
          }}
        />
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
      <WholeNumberInput form={form} field={pendingField} state={props} />
    </SettingsFormCard>
  );
}
