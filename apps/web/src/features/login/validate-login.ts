export type LoginField = 'username' | 'password';

export interface LoginFieldError {
  field: LoginField;
  message: string;
}

const labels: Record<LoginField, string> = { username: 'Username', password: 'Password' };

/** Spec section 5: '{field} is required' for blank or whitespace-only, stopping at the first failure. */
export function validateLogin(values: Record<LoginField, string>): LoginFieldError | null {
  for (const field of ['username', 'password'] as const) {
    if (!values[field].trim()) return { field, message: `${labels[field]} is required` };
  }
  return null;
}
