import { Trash2Icon } from 'lucide-react';
import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { FieldError } from '@/components/feedback/field-error';
import { FormField } from '@/components/forms/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import type { emptyRuleset } from './ruleset-form-schema';

type FormValues = typeof emptyRuleset;
export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

const checkbox = 'size-4 shrink-0 rounded accent-brand focus-visible:outline-2';

/** One rule of the create form: its fields, each with its message under it, and Remove. */
export function RuleFieldset({
  index,
  register,
  errors,
  stores,
  onRemove,
}: {
  index: number;
  register: UseFormRegister<FormValues>;
  errors: FieldErrors<FormValues>['rules'];
  stores: Array<{ id: string; name: string }> | undefined;
  onRemove: () => void;
}) {
  const e = errors?.[index];
  const id = (field: string) => `rule-${index}-${field}`;
  const label = `Rule ${index + 1}`;
  return (
    <fieldset className="grid items-start gap-4 rounded-md border p-4 md:grid-cols-2" aria-label={label}>
      <legend className="px-1 text-sm font-medium">{label}</legend>
      <FormField id={id('name')} label="Name" error={e?.name?.message}>
        {(control) => (
          <Input placeholder="Double points on dairy" {...register(`rules.${index}.name`)} {...control} />
        )}
      </FormField>
      <FormField id={id('percent')} label="Percent" error={e?.percent?.message} hint="0 to 1000.">
        {(control) => (
          <Input
            type="number"
            inputMode="decimal"
            min={0}
            max={1000}
            step={0.01}
            placeholder="10"
            {...register(`rules.${index}.percent`)}
            {...control}
          />
        )}
      </FormField>
      <FormField
        id={id('categories')}
        label="Categories"
        error={e?.categories?.message ?? firstItemError(e?.categories)}
        hint="Comma-separated; empty matches every category."
      >
        {(control) => (
          <Input placeholder="dairy, bakery" {...register(`rules.${index}.categories`)} {...control} />
        )}
      </FormField>
      <FormField
        id={id('skus')}
        label="SKUs"
        error={e?.skus?.message ?? firstItemError(e?.skus)}
        hint="Comma-separated; empty matches every SKU."
      >
        {(control) => (
          <Input placeholder="MILK-1L, BREAD-500" {...register(`rules.${index}.skus`)} {...control} />
        )}
      </FormField>
      <fieldset className="grid gap-2" aria-describedby={`${id('stores')}-error`}>
        <legend className="text-sm font-medium">Stores</legend>
        {stores === undefined ? (
          <p className="text-sm text-muted-foreground">Loading POS keys...</p>
        ) : stores.length === 0 ? (
          <p className="text-sm text-muted-foreground">No POS keys yet: the rule applies in every store.</p>
        ) : (
          <div className="flex max-h-32 flex-wrap gap-x-4 gap-y-2 overflow-y-auto">
            {stores.map((store) => (
              <label key={store.id} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className={checkbox}
                  value={store.id}
                  {...register(`rules.${index}.posIds`)}
                />
                {store.name}
              </label>
            ))}
          </div>
        )}
        <FieldError id={`${id('stores')}-error`} message={e?.posIds?.message ?? firstItemError(e?.posIds)} />
      </fieldset>
      <fieldset className="grid gap-2" aria-describedby={`${id('days')}-error`}>
        <legend className="text-sm font-medium">Days</legend>
        <div className="flex flex-wrap gap-x-4 gap-y-2">
          {WEEKDAYS.map((day, i) => (
            <label key={day} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className={checkbox}
                value={String(i + 1)}
                {...register(`rules.${index}.daysOfWeek`)}
              />
              {day}
            </label>
          ))}
        </div>
        <FieldError
          id={`${id('days')}-error`}
          message={e?.daysOfWeek?.message ?? firstItemError(e?.daysOfWeek)}
        />
      </fieldset>
      <FormField id={id('from')} label="Hours from" error={e?.hours?.from?.message ?? e?.hours?.message}>
        {(control) => <Input type="time" {...register(`rules.${index}.hours.from`)} {...control} />}
      </FormField>
      <FormField
        id={id('to')}
        label="Hours to"
        error={e?.hours?.to?.message}
        hint="Both ends included, in the programme time zone. From after To runs past midnight; Days count each minute on its own day."
      >
        {(control) => <Input type="time" {...register(`rules.${index}.hours.to`)} {...control} />}
      </FormField>
      <div className="md:col-span-2">
        <Button type="button" variant="outline" size="sm" onClick={onRemove}>
          <Trash2Icon />
          Remove {label}
        </Button>
      </div>
    </fieldset>
  );
}

/** A list field's message may sit on one of its items ('rules.0.skus.2'). */
function firstItemError(list: unknown): string | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.find((item) => item?.message)?.message;
}
