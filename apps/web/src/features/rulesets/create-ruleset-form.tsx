import type { CreateRulesetRequest } from '@loyalty/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { FieldError } from '@/components/feedback/field-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { setServerFieldErrors, useZodForm } from '@/lib/form';
import { emptyRuleset, rulesetFormSchema } from './ruleset-form-schema';
import { createRuleset, rulesetsKeys } from './rulesets-api';

function describedBy(id: string, error: string | undefined): string {
  return error ? `${id}-hint ${id}-error` : `${id}-hint`;
}

/** Spec section 2 "Rulesets" create form; shown to those who may create (MANAGER, ADMIN). */
export function CreateRulesetForm() {
  const queryClient = useQueryClient();
  const form = useZodForm(rulesetFormSchema, { defaultValues: emptyRuleset });
  const errors = {
    version: form.formState.errors.version?.message,
    percent: form.formState.errors.percent?.message,
    activeFrom: form.formState.errors.activeFrom?.message,
  };

  const mutation = useMutation({
    mutationFn: (body: CreateRulesetRequest) => createRuleset(body),
    meta: { errorTitle: 'Create failed' },
    onSuccess: () => {
      toast.success('Ruleset created successfully');
      form.reset(emptyRuleset);
      void queryClient.invalidateQueries({ queryKey: rulesetsKeys.all });
    },
    // The server names the percent 'config.percent'; the input is 'percent'.
    onError: (error) => setServerFieldErrors(form, error, { 'config.percent': 'percent' }),
  });

  const onSubmit = form.handleSubmit((body) => {
    if (!mutation.isPending) mutation.mutate(body);
  });

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
              {...form.register('version')}
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
              {...form.register('percent')}
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
              {...form.register('activeFrom')}
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
