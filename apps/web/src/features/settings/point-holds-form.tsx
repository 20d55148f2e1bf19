import { cardsLimitText, holdDurationText } from './card-management-summary';
import { pointHoldsSchema, toPointHoldsValues } from './settings-form';
import type { SettingsFormProps } from './settings-form-card';
import { WholeNumberSettingsCard } from './whole-number-settings-card';

// Spec section 9: placeholder hints 60 minutes and 3 cards, for administrators (see settingsPlaceholder).
const fields = [
  {
    name: 'ttlMinutes',
    label: 'Holds TTL (minutes)',
    placeholder: '60',
    unset: holdDurationText(null),
    hint: 'How long a POS hold keeps points reserved before it expires.',
    // A hold of 0 minutes would lapse as it was made (the contract refuses it).
    min: 1,
  },
  {
    name: 'cardsLimit',
    label: 'Cards per Account',
    placeholder: '3',
    unset: cardsLimitText(null),
    hint: 'How many cards that are not blocked one account may have.',
  },
] as const;

/** The 'Point Holds Configuration' form; admins edit it, everyone else reads it. */
export function PointHoldsForm(props: SettingsFormProps) {
  return (
    <WholeNumberSettingsCard
      {...props}
      title="Point Holds Configuration"
      editDescription="Empty fields keep their current value."
      fields={fields}
      schema={pointHoldsSchema}
      toValues={toPointHoldsValues}
      aliases={{ 'holds.ttl_minutes': 'ttlMinutes', 'cards.limit_per_account': 'cardsLimit' }}
    />
  );
}
