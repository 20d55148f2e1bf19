import { z } from 'zod';
import { isoTimestamp, listFormat, pageQuery, sortParam } from './common';

export const roles = ['ADMIN', 'MANAGER', 'VIEWER'] as const;
export const role = z.enum(roles);
export type Role = z.infer<typeof role>;

/** What the console shows for each role. */
export const roleLabels: Record<Role, string> = {
  ADMIN: 'Administrator',
  MANAGER: 'Manager',
  VIEWER: 'Viewer',
};

/** The longest username and password a sign-in takes (the server's ADMIN_USERNAME / ADMIN_PASSWORD check too). */
export const USERNAME_MAX_LENGTH = 100;
export const PASSWORD_MAX_LENGTH = 200;

export const loginRequest = z.object({
  username: z.string().trim().min(1, 'Username is required').max(USERNAME_MAX_LENGTH),
  // Spec section 5: a whitespace-only password counts as blank, like the username.
  password: z
    .string()
    .refine((v) => v.trim().length > 0, 'Password is required')
    .pipe(z.string().max(PASSWORD_MAX_LENGTH))
    // The document shows the refinement's input side; state the rule (not blank, at most 200) there too.
    .meta({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH, pattern: '\\S' }),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const loginResponse = z.object({
  token: z.string(),
  expiresInSeconds: z.number().int(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** Claims of the session token; the console reads `role` to hide what the user may not do. */
export interface SessionClaims {
  sub: string;
  username: string;
  role: Role;
  exp: number;
  /**
   * The session's id (a UUID), what a sign-out revokes. Absent from tokens issued before sign-out ended sessions
   * on the server: those cannot be revoked and stay valid until they expire.
   */
  jti?: string;
}

export const user = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string().nullable(),
  fullName: z.string().nullable(),
  role,
  createdAt: isoTimestamp,
  lastLogin: isoTimestamp.nullable(),
});
export type User = z.infer<typeof user>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const createUserRequest = z.object({
  username: z
    .string()
    .trim()
    .min(1, 'Username and password are required')
    .max(100)
    .regex(/^[A-Za-z0-9._@-]+$/, 'Username may contain letters, digits and . _ @ - only'),
  password: z
    .string()
    .refine((v) => v.trim().length > 0, 'Username and password are required')
    .pipe(z.string().min(8, 'Password must be at least 8 characters').max(200))
    // The document shows the refinement's input side; state the rule (8–200, not blank) there too.
    .meta({ minLength: 8, maxLength: 200, pattern: '\\S' }),
  email: z
    .union([z.literal(''), z.email('Please enter a valid email address').max(200)])
    .nullish()
    .transform((v) => (v ? v : null)),
  fullName: optionalText(200),
  role: role.default('VIEWER'),
});
export type CreateUserRequest = z.input<typeof createUserRequest>;

export const userListQuery = pageQuery.extend({
  format: listFormat,
  role: role.optional(),
  sort: sortParam(['username', 'fullName', 'email', 'role', 'createdAt', 'lastLogin']),
});
export type UserListQuery = z.input<typeof userListQuery>;
