import { FormField } from '@/components/forms/form-field';
import { Input } from '@/components/ui/input';
import { timeZoneSchema, toTimeZoneValues } from './settings-form';
import {
  SettingsFormCard,
  type SettingsFormProps,
  settingsInputProps,
  useSettingsForm,
} from './settings-form-card';

let zones: string[] | undefined;

/**
 * The IANA zones this browser knows, and the stored one in case it does not (the server checks its own
 * list). UTC, the default, is not in every engine's list of canonical zones, so it is added.
 */
function zoneOptions(stored: string): readonly string[] {
  zones ??= [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];
  return stored === '' || zones.includes(stored) ? zones : [stored, ...zones];
}

/**
 * `programme.timezone`: the zone earning rules read their days and hours in, and the day a per-card cap
 * counts (PROGRAMME-API §3). A choice from a list, since a mistyped zone is refused anyway: the browser's own
 * select, bound like the other settings inputs (typing a zone's first letters finds it); read-only text for
 * those who may not change it.
 */
export function TimeZoneForm(props: SettingsFormProps) {
  const settingsForm = useSettingsForm(timeZoneSchema, toTimeZoneValues, props, {
    'programme.timezone': 'timezone',
  });
  const { form } = settingsForm;

  return (
    <SettingsFormCard
      title="Time Zone"
      description={
        props.canEdit
          ? 'The zone the programme counts its days and hours in. Changes apply to receipts from now on.'
          : 'The programme counts its days and hours in this zone; an administrator sets it.'
      }
      state={props}
      settingsForm={settingsForm}
      submitLabel="Save Time Zone"
    >
      <FormField
        id="settings-timezone"
        label="Time zone"
        error={form.formState.errors.timezone?.message}
        hint="An IANA zone, such as Europe/Berlin. Earning rules and the daily cap per card follow it."
      >
        {(control) =>
          props.canEdit ? (
            <select
              {...form.register('timezone')}
              {...control}
              disabled={props.loading}
              // The Input's look, on the browser's select.
              className="flex h-9 w-full min-w-0 rounded-md border border-input bg-transparent px-3 py-1 text-base shadow-xs outline-none transition-[color,box-shadow] disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive md:text-sm dark:bg-input/30"
            >
              {zoneOptions(form.watch('timezone')).map((zone) => (
                <option key={zone} value={zone} className="bg-popover text-popover-foreground">
                  {zone}
                </option>
              ))}
            </select>
          ) : (
            <Input {...form.register('timezone')} {...settingsInputProps(props)} {...control} />
          )
        }
      </FormField>
    </SettingsFormCard>
  );
}
