import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import {
  emptyRuleset,
  type RulesetErrors,
  type RulesetValues,
  toCreateRulesetRequest,
  validateRuleset,
} from './ruleset-form';
import { createRuleset, rulesetsKeys } from './rulesets-api';

function describedBy(id: string, error: string | undefined): string {
  return error ? `${id}-hint ${id}-error` : `${id}-hint`;
}

/** Spec section 2 "Rulesets" create form; shown to those who may create (MANAGER, ADMIN). */
export function CreateRulesetForm() {
  const queryClient = useQueryClient();
  const [values, setValues] = useState<RulesetValues>(emptyRuleset);
  const [errors, setErrors] = useState<RulesetErrors>({});

  const mutation = useMutation({
    mutationFn: createRuleset,
    meta: { errorTitle: 'Create failed' },
    onSuccess: () => {
      toast.success('Ruleset created successfully');
      setValues(emptyRuleset);
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: rulesetsKeys.all });
    },
  });

  const set = (name: keyof RulesetValues) => (value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    const found = validateRuleset(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    mutation.mutate(toCreateRulesetRequest(values));
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Create Ruleset</CardTitle>
        <CardDescription>
          The ruleset in force is the highest version whose Active From has passed.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={onSubmit}
          aria-label="Create Ruleset"
          className="grid gap-4 md:grid-cols-[repeat(3,minmax(0,1fr))_auto] md:items-start"
        >
          <div className="grid gap-2">
            <Label htmlFor="ruleset-version">Version</Label>
            <Input
              id="ruleset-version"
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              placeholder="Auto"
              value={values.version}
              onChange={(e) => set('version')(e.target.value)}
              aria-invalid={errors.version ? true : undefined}
              aria-describedby={describedBy('ruleset-version', errors.version)}
            />
            <p id="ruleset-version-hint" className="text-sm text-muted-foreground">
              Leave empty to number it from the current time.
            </p>
            <FieldError id="ruleset-version-error" message={errors.version} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="ruleset-percent">Accrual Percentage</Label>
            <Input
              id="ruleset-percent"
              type="number"
              inputMode="decimal"
              min={0}
              max={100}
              step={0.01}
              placeholder="5"
              value={values.percent}
              onChange={(e) => set('percent')(e.target.value)}
              aria-invalid={errors.percent ? true : undefined}
              aria-describedby={describedBy('ruleset-percent', errors.percent)}
            />
            <p id="ruleset-percent-hint" className="text-sm text-muted-foreground">
              0 to 100; empty means 0.
            </p>
            <FieldError id="ruleset-percent-error" message={errors.percent} />
          </div>
          <div className="grid gap-2">
            <Label htmlFor="ruleset-active-from">Active From</Label>
            <Input
              id="ruleset-active-from"
              type="datetime-local"
              value={values.activeFrom}
              onChange={(e) => set('activeFrom')(e.target.value)}
              aria-invalid={errors.activeFrom ? true : undefined}
              aria-describedby={describedBy('ruleset-active-from', errors.activeFrom)}
            />
            <p id="ruleset-active-from-hint" className="text-sm text-muted-foreground">
              Optional; without it the ruleset stays a draft.
            </p>
            <FieldError id="ruleset-active-from-error" message={errors.activeFrom} />
          </div>
          <Button type="submit" className="md:mt-[1.375rem]" disabled={mutation.isPending}>
            {mutation.isPending ? 'Creating...' : 'Create Ruleset'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
