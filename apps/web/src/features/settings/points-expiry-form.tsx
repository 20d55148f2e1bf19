import { pointsExpirySchema, toPointsExpiryValues } from './settings-form';
import type { SettingsFormProps } from './settings-form-card';
import { WholeNumberSettingsCard } from './whole-number-settings-card';

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
  return (
    <WholeNumberSettingsCard
      {...props}
      title="Points Expiry"
      editDescription="Empty fields keep their current value. Changes date the points earned from now on."
      fields={fields}
      schema={pointsExpirySchema}
      toValues={toPointsExpiryValues}
      aliases={{ 'points.expiry_days': 'expiryDays', 'points.pending_days': 'pendingDays' }}
    />
  );
}
