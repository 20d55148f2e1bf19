import { useQuery } from '@tanstack/react-query';
import { ChevronDownIcon, PlusIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
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
  const { errors, submitCount } = form.formState;
  // Stores are only needed once there is a rule to target them.
  const stores = useQuery({ ...storesQuery(), enabled: open && fields.length > 0 });
  const addRule = useRef<HTMLButtonElement>(null);
  const removedAt = useRef<number | null>(null);
  const hasErrors = Boolean(
    errors.rules || errors.minSpend || errors.maxPointsPerReceipt || errors.maxPointsPerCardPerDay,
  );
  // A submit (or the server's answer to one) with a message inside the section opens it, so the message is
  // seen; opened rather than forced open, so the toggle still closes it afterwards. Set while rendering, not
  // in an effect, so the section is never painted closed with the error focused inside it.
  const errorsAt = hasErrors ? submitCount : -1;
  const [openedFor, setOpenedFor] = useState(errorsAt);
  if (errorsAt !== openedFor) {
    setOpenedFor(errorsAt);
    if (hasErrors) setOpen(true);
  }

  // The removed rule's button leaves the page with it: focus moves to the rule that took its place, else the
  // one before, else 'Add rule', so keyboard users are not sent back to the top of the page.
  useEffect(() => {
    const index = removedAt.current;
    if (index === null) return;
    removedAt.current = null;
    if (fields.length === 0) addRule.current?.focus();
    else form.setFocus(`rules.${Math.min(index, fields.length - 1)}.name`);
  }, [fields, form]);

  return (
    <div className="grid gap-4 md:col-span-full">
      <div>
        <Button
          type="button"
          variant="ghost"
          className="-ml-3"
          aria-expanded={open}
          aria-controls="ruleset-advanced"
          onClick={() => setOpen(!open)}
        >
          <ChevronDownIcon className={cn('transition-transform', !open && '-rotate-90')} />
          Advanced rules
          {fields.length > 0 && <span className="text-muted-foreground">({fields.length})</span>}
        </Button>
      </div>
      <div id="ruleset-advanced" hidden={!open} className="grid gap-4">
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
            onRemove={() => {
              removedAt.current = index;
              remove(index);
            }}
          />
        ))}
        {errors.rules?.message && <p className="text-sm text-destructive">{errors.rules.message}</p>}
        <div>
          <Button
            ref={addRule}
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
