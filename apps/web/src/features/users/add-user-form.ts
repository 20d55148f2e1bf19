import type { CreateUserRequest, FieldError, Role } from '@loyalty/contracts';
import { INVALID_EMAIL_MESSAGE, isValidEmail } from '@/lib/validation';

export interface AddUserValues {
  username: string;
  password: string;
  email: string;
  fullName: string;
  role: Role;
}

export type AddUserErrors = Partial<Record<keyof AddUserValues | 'form', string>>;

export const emptyAddUser: AddUserValues = {
  username: '',
  password: '',
  email: '',
  fullName: '',
  role: 'VIEWER',
};

/** Spec section 5 "Create user", checked in the browser before anything is sent. */
export function validateAddUser(values: AddUserValues): AddUserErrors {
  if (!values.username.trim() || !values.password.trim()) {
    return { form: 'Username and password are required' };
  }
  if (values.email.trim() && !isValidEmail(values.email)) return { email: INVALID_EMAIL_MESSAGE };
  return {};
}

export function toCreateUserRequest(values: AddUserValues): CreateUserRequest {
  return {
    username: values.username.trim(),
    password: values.password,
    email: values.email.trim() || null,
    fullName: values.fullName.trim() || null,
    role: values.role,
  };
}

/** The server's `details` ({field, message}) placed under the matching inputs. */
export function serverFieldErrors(details: FieldError[] | undefined): AddUserErrors {
  const errors: AddUserErrors = {};
  for (const { field, message } of details ?? []) {
    const key = field.split('.').pop();
    if (key === 'username' || key === 'password' || key === 'email' || key === 'fullName' || key === 'role') {
      errors[key] ??= message;
    }
  }
  return errors;
}
