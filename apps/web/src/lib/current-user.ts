import type { Role, SessionClaims } from '@loyalty/contracts';
import { getToken } from './session';
import { readTokenPayload } from './token-claims';

// A type guard rather than the contracts' `roles` array: that module brings zod into the first chunk.
function isRole(value: unknown): value is Role {
  return value === 'ADMIN' || value === 'MANAGER' || value === 'VIEWER';
}

/** Reads the claims of the session token. Not verified: the server decides, the console only adapts. */
export function decodeClaims(token: string | null): SessionClaims | null {
  const claims = readTokenPayload(token) as Partial<SessionClaims> | null;
  if (!claims || !isRole(claims.role)) return null;
  return {
    sub: String(claims.sub ?? ''),
    username: String(claims.username ?? ''),
    role: claims.role,
    exp: Number(claims.exp ?? 0),
  };
}

export interface CurrentUser {
  username: string;
  role: Role | null;
  isAdmin: boolean;
  /** May change accounts, cards, rulesets, SKU exclusions and POS keys (ADMIN or MANAGER). */
  canManage: boolean;
}

export function getCurrentUser(): CurrentUser {
  const claims = decodeClaims(getToken());
  const role = claims?.role ?? null;
  return {
    username: claims?.username ?? '',
    role,
    isAdmin: isAdmin(role),
    canManage: canManage(role),
  };
}

export function isAdmin(role: Role | null | undefined): boolean {
  return role === 'ADMIN';
}

export function canManage(role: Role | null | undefined): boolean {
  return role === 'ADMIN' || role === 'MANAGER';
}
