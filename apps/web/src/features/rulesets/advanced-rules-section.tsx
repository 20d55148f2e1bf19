import { useQuery } from '@tanstack/react-query';
import { ChevronDownIcon, PlusIcon } from 'lucide-react';
import { useState } from 'react';
import { type UseFormReturn, useFieldArray } from 'react-hook-form';
import { FormField } from '@/components/forms/form-field';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { RuleFieldset } from './rule-fieldset';
import { emptyRule, type emptyRuleset } from './ruleset-form-schema';
import { storesQuery } from './rulesets-api';

type Form = UseFormReturn<typeof emptyRuleset, unknown, unknown>;
const RULES_MAX = 50;

const amountFields = [
  ['minSpend', 'Minimum Spend', 'A receipt below this earns nothing.'],
  ['maxPointsPerReceipt', 'Max Points per Receipt', 'Lines are credited in order until the cap.'],
  ['maxPointsPerCardPerDay', 'Max Points per Card per Day', 'Across receipts, per programme day.'],
] as const;

/**
 * The create form's 'Advanced rules' (PROGRAMME-API §3): minimum spend, caps and up to 50 rules, added and
 * removed inline. Closed until asked for, so the spec's three fields stay the form at first sight.
 */
export function AdvancedRulesSection({ form }: { form: Form }) {
  const [open, setOpen] = useState(false);
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'rules' });
  const { errors } = form.formState;
  // Stores are only needed once there is a rule to target them.
  const stores = useQuery({ ...storesQuery(), enabled: open && fields.length > 0 });
  // A server or validation message inside the section opens it, so the message is seen.
  const hasErrors = Boolean(
    errors.rules || errors.minSpend || errors.maxPointsPerReceipt || errors.maxPointsPerCardPerDay,
  );
  const shown = open || hasErrors;

  return (
    <div className="grid gap-4 md:col-span-full">
      <div>
        <Button
          type="button"
          variant="ghost"
          className="-ml-3"
          aria-expanded={shown}
          aria-controls="ruleset-advanced"
          onClick={() => setOpen(!shown)}
        >
          <ChevronDownIcon className={cn('transition-transform', !shown && '-rotate-90')} />
          Advanced rules
          {fields.length > 0 && <span className="text-muted-foreground">({fields.length})</span>}
        </Button>
      </div>
      <div id="ruleset-advanced" hidden={!shown} className="grid gap-4">
        <div className="grid items-start gap-4 md:grid-cols-3">
          {amountFields.map(([name, label, hint]) => (
            <FormField
              key={name}
              id={`ruleset-${name}`}
              label={label}
              error={errors[name]?.message}
              hint={hint}
            >
              {(control) => (
                <Input
                  type="number"
                  inputMode="decimal"
                  min={0}
                  step={0.01}
                  placeholder="None"
                  {...form.register(name)}
                  {...control}
                />
              )}
            </FormField>
          ))}
        </div>
        {fields.map((field, index) => (
          <RuleFieldset
            key={field.id}
            index={index}
            register={form.register}
            errors={errors.rules}
            stores={stores.data}
            onRemove={() => remove(index)}
          />
        ))}
        {errors.rules?.message && <p className="text-sm text-destructive">{errors.rules.message}</p>}
        <div>
          <Button
            type="button"
            variant="outline"
            disabled={fields.length >= RULES_MAX}
            onClick={() => append(emptyRule, { focusName: `rules.${fields.length}.name` })}
          >
            <PlusIcon />
            Add rule
          </Button>
          <p className="mt-2 text-sm text-muted-foreground">
            A line earns the highest percent of the rules it matches, else the Accrual Percentage; an excluded
            SKU always earns 0.
          </p>
        </div>
      </div>
    </div>
  );
}
