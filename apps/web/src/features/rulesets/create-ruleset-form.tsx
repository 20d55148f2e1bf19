import type { CreateRulesetRequest } from '@loyalty/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/forms/form-field';
import { useLeaveGuard } from '@/components/forms/use-leave-guard';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { isApiError } from '@/lib/api-client';
import { type FieldAliases, setServerFieldErrors, useZodForm } from '@/lib/form';
import { forgetKey, forgetKeyIfRefused, keyFor } from '@/lib/idempotency-key';
import { programmeTimeLabel, programmeTimeZone } from '@/lib/programme-time';
import { settingsQuery } from '@/lib/settings-api';
import { AdvancedRulesSection } from './advanced-rules-section';
import { emptyRuleset, rulesetFormSchema } from './ruleset-form-schema';
import { createRuleset, rulesetsKeys } from './rulesets-api';

/** Spec section 2 "Rulesets" create form; shown to those who may create (MANAGER, ADMIN). */
export function CreateRulesetForm() {
  const queryClient = useQueryClient();
  // Active From is typed in the programme's time zone; until settings answer, the zone is not known, and
  // if they fail it stays unknown: no time is read on a guessed zone's clocks (UTC would be hours off).
  const settings = useQuery(settingsQuery());
  const zoneKnown = settings.data !== undefined;
  const timeZone = programmeTimeZone(settings.data);
  const schema = useMemo(() => rulesetFormSchema(timeZone), [timeZone]);
  const form = useZodForm(schema, { defaultValues: emptyRuleset });
  const { errors } = form.formState;
  // Reloading or closing the tab asks first while something is typed (the dialogs' useFormDialog does the same).
  useLeaveGuard(form.formState.isDirty);

  // One Idempotency-Key per ruleset asked for (keyFor): the same values sent again after a failure whose create
  // may have committed (no answer, a 5xx) reuse it and get the ruleset made the first time, not a second one
  // (an Auto version would make an identical draft). A success or the server's own refusal forgets it.
  const mutation = useMutation({
    mutationFn: (body: CreateRulesetRequest) =>
      createRuleset({ ...body, idempotencyKey: keyFor(rulesetRequest(body)) }),
    meta: { errorTitle: 'Create failed' },
    onSuccess: (_created, body) => {
      forgetKey(rulesetRequest(body));
      toast.success('Ruleset created successfully');
      form.reset(emptyRuleset);
      void queryClient.invalidateQueries({ queryKey: rulesetsKeys.all });
    },
    onError: (error, body) => {
      forgetKeyIfRefused(rulesetRequest(body), error);
      // The server names the config's fields 'config.percent', 'config.rules.0.posIds'…; the inputs drop 'config.'.
      setServerFieldErrors(form, error, configAliases(error));
    },
  });

  const onSubmit = form.handleSubmit((body) => {
    if (!mutation.isPending && zoneKnown) mutation.mutate(body);
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
          <FormField
            id="ruleset-version"
            label="Version"
            error={errors.version?.message}
            hint="Leave empty to number it from the current time."
          >
            {(control) => (
              <Input
                type="number"
                inputMode="numeric"
                min={1}
                step={1}
                placeholder="Auto"
                {...form.register('version')}
                {...control}
              />
            )}
          </FormField>
          <FormField
            id="ruleset-percent"
            label="Accrual Percentage"
            error={errors.percent?.message}
            hint="0 to 100; empty means 0."
          >
            {(control) => (
              <Input
                type="number"
                inputMode="decimal"
                min={0}
                max={100}
                step={0.01}
                placeholder="5"
                {...form.register('percent')}
                {...control}
              />
            )}
          </FormField>
          <FormField
            id="ruleset-active-from"
            label="Active From"
            error={errors.activeFrom?.message}
            hint={`${zoneHint(settings.isError, zoneKnown, timeZone)}. Optional; without it the ruleset stays a draft.`}
          >
            {(control) => <Input type="datetime-local" {...form.register('activeFrom')} {...control} />}
          </FormField>
          <Button
            type="submit"
            className="md:mt-[1.375rem]"
            pending={mutation.isPending}
            // Not before the zone is known: a time typed meanwhile would be read in the wrong one.
            disabled={!zoneKnown}
          >
            {mutation.isPending ? 'Creating...' : 'Create Ruleset'}
          </Button>
          <AdvancedRulesSection form={form} />
        </form>
      </CardContent>
    </Card>
  );
}

/** What names one ruleset asked for, for its Idempotency-Key: every value sent. */
function rulesetRequest(body: CreateRulesetRequest): string {
  return `create-ruleset:${JSON.stringify(body)}`;
}

function configAliases(error: unknown): FieldAliases<typeof emptyRuleset> {
  if (!isApiError(error)) return {};
  const aliases: Record<string, string> = {};
  for (const { field } of error.details ?? []) {
    const path = field.replace(/^body\./, '');
    if (path.startsWith('config.')) aliases[path] = path.slice('config.'.length);
  }
  return aliases as FieldAliases<typeof emptyRuleset>;
}

/** Whose clocks Active From is read on: the programme's zone, or why it is not known yet. */
function zoneHint(failed: boolean, known: boolean, timeZone: string): string {
  if (known) return programmeTimeLabel(timeZone);
  return failed
    ? 'Programme time zone unknown: the settings failed to load, reload to retry'
    : 'Programme time';
}
