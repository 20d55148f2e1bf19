import { createRulesetRequest } from '@loyalty/contracts';
import { z } from 'zod';
import { optionalNumberFromInput } from '@/lib/form';

const { version, config, activeFrom } = createRulesetRequest.shape;

/**
 * The create form's inputs as typed, checked by the contract's own fields: an empty version is left to the
 * server (the current time in seconds), an empty percent is 0 (spec section 5), and the datetime-local
 * value (wall-clock time, no zone) becomes an ISO instant so the server gets the moment the user meant.
 */
export const rulesetFormSchema = z
  .object({
    version: optionalNumberFromInput(version, null),
    percent: optionalNumberFromInput(config.shape.percent, 0),
    activeFrom: z
      .string()
      .transform((local): string | null | undefined => {
        if (!local) return null;
        const date = new Date(local);
        return Number.isNaN(date.getTime()) ? local : date.toISOString();
      })
      .pipe(activeFrom),
  })
  .transform(({ version, percent, activeFrom }) => ({ version, config: { percent }, activeFrom }));

export const emptyRuleset = { version: '', percent: '', activeFrom: '' };
