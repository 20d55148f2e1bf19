import { zodResolver } from '@hookform/resolvers/zod';
import {
  type FieldErrors,
  type FieldValues,
  get,
  type Path,
  type UseFormProps,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import { z } from 'zod';
import { isApiError } from './api-client';

/**
 * A react-hook-form form validated by a zod schema built from the contracts: the browser checks exactly
 * what the server checks, with the same messages. Submit handlers receive the schema's output (trimmed,
 * converted), ready to send.
 */
export function useZodForm<Input extends FieldValues, Output>(
  schema: z.ZodType<Output, Input>,
  options: Omit<UseFormProps<Input, unknown, Output>, 'resolver'>,
): UseFormReturn<Input, unknown, Output> {
  return useForm<Input, unknown, Output>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: zodResolver(schema as never) as never,
  });
}

/**
 * The spec's one message for several blank required fields ('Username and password are required'): the
 * contract gives it to each blank field; the form says it once above the fields (`formMessage`), and
 * `field(name)` gives a FormField the field's own message without it, still marking the field invalid.
 */
export function formLevelMessage<T extends FieldValues>(errors: FieldErrors<T>, message: string) {
  const messageOf = (name: Path<T>): string | undefined => {
    const own = (get(errors, name) as { message?: unknown } | undefined)?.message;
    return typeof own === 'string' ? own : undefined;
  };
  const shown = Object.keys(errors).some((name) => messageOf(name as Path<T>) === message);
  return {
    formMessage: shown ? message : undefined,
    field: (name: Path<T>) => {
      const own = messageOf(name);
      return { error: own === message ? undefined : own, invalid: get(errors, name) !== undefined };
    },
  };
}

/** Where the server's field path ('body.config.percent') names a differently named input ('percent'). */
export type FieldAliases<T extends FieldValues> = Partial<Record<string, Path<T>>>;

/**
 * The one mapper from a 400's `details` ({field, message}) onto a form's inputs. Paths are the server's
 * (`body.` prefix allowed); a path naming no input is left to the toast. Focuses the first placed field.
 * Returns whether any error was placed.
 */
export function setServerFieldErrors<T extends FieldValues>(
  form: Pick<UseFormReturn<T, unknown, unknown>, 'getValues' | 'getFieldState' | 'setError'>,
  error: unknown,
  aliases: FieldAliases<T> = {},
): boolean {
  if (!isApiError(error) || !error.details?.length) return false;
  const values = form.getValues();
  let placed = false;
  for (const { field, message } of error.details) {
    const path = field.replace(/^(body|querystring|params)\./, '');
    const name = (aliases[path] ?? path) as Path<T>;
    if (get(values, name) === undefined || form.getFieldState(name).error) continue;
    form.setError(name, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

/**
 * A number input's text into a contract's number field: blank or not a number becomes NaN, which the
 * contract's own type check refuses with its own message.
 */
export function numberFromInput<Out>(field: z.ZodType<Out, number>) {
  return z
    .string()
    .trim()
    .transform((text) => (text === '' ? Number.NaN : Number(text)))
    .pipe(field);
}

/**
 * Like numberFromInput, for optional fields: blank becomes `blank` (null, 0 or undefined, whatever the
 * contract makes of an absent value) instead of NaN.
 */
export function optionalNumberFromInput<Out>(
  // `unknown` admits a contract field that preprocesses its input (the ruleset version).
  field: z.ZodType<Out, number | null | undefined> | z.ZodType<Out, unknown>,
  blank: number | null | undefined,
) {
  return z
    .string()
    .trim()
    .transform((text) => (text === '' ? blank : Number(text)))
    .pipe(field as z.ZodType<Out, number | null | undefined>);
}
