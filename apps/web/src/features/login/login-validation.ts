import { type LoginRequest, loginRequest } from '@loyalty/contracts';

export type LoginField = keyof LoginRequest;
export type LoginErrors = Partial<Record<LoginField, string>>;

/** The contract's own schema, as the server applies it: the parsed values, or each field's first message. */
export function validateLogin(values: LoginRequest): { data: LoginRequest } | { errors: LoginErrors } {
  const parsed = loginRequest.safeParse(values);
  if (parsed.success) return { data: parsed.data };
  const errors: LoginErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'username' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { errors };
}
