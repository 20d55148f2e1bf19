import type { LoginRequest } from '@loyalty/contracts';
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { LoginErrors, LoginField } from './login-validation';

// Spec section 5: the form stops at the first failure, in this order.
const FIELDS: readonly LoginField[] = ['username', 'password'];

let validation: Promise<typeof import('./login-validation')> | undefined;
/** zod and the contracts' schemas load apart from the sign-in page: they weigh more than the rest of it. */
const loadValidation = () => {
  validation ??= import('./login-validation');
  return validation;
};

/**
 * The sign-in form's state. The one form without react-hook-form (STYLE.md): /login is the first download
 * and react-hook-form is 13 kB of it (brotli) for two fields. It behaves the same way: validated by the
 * contract's schema on submit, again on every change after a submit, focus to the first failing field.
 */
export function useLoginForm(onValid: (values: LoginRequest) => void) {
  const [values, setValues] = useState<LoginRequest>({ username: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const submitted = useRef(false);
  const inputs = useRef<Partial<Record<LoginField, HTMLInputElement | null>>>({});

  const validate = async (next: LoginRequest) => (await loadValidation()).validateLogin(next);

  const field = (name: LoginField) => ({
    name,
    value: values[name],
    ref: (input: HTMLInputElement | null) => {
      inputs.current[name] = input;
    },
    onChange: async (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (!submitted.current) return;
      const result = await validate(next);
      setErrors('errors' in result ? result.errors : {});
    },
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    const result = await validate(values);
    if ('errors' in result) {
      setErrors(result.errors);
      const first = FIELDS.find((name) => result.errors[name]);
      if (first) inputs.current[first]?.focus();
      return;
    }
    setErrors({});
    onValid(result.data);
  };

  // Only the first failing field's message shows.
  const first = FIELDS.find((name) => errors[name]);
  const messageFor = (name: LoginField) => (name === first ? errors[name] : undefined);

  // Fetch the schema on the first key or pointer press, so the first Sign in does not wait for it, and a
  // page that is only looked at (or measured) does not download it.
  const preload = () => void loadValidation().catch(() => undefined);

  return { field, onSubmit, messageFor, preload };
}
