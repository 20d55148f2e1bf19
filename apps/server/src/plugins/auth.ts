import type { Role } from '@loyalty/contracts';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/app-error';
import { bearerCredential } from '../lib/bearer';
import type { TokenService } from '../lib/tokens';
import { findSessionUser } from '../modules/auth/sessions.repository';

export interface AuthUser {
  id: string;
  username: string;
  role: Role;
}

export interface AuthSession {
  /** The token's id; null for a token issued before sign-outs were recorded, which cannot be revoked. */
  jti: string | null;
  /** When the token expires (seconds since the epoch): a revocation need not outlive it. */
  exp: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    tokens: TokenService;
    /** onRequest hook: requires a valid session token and loads its user. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: the signed-in user must have one of these roles (403 FORBIDDEN otherwise). */
    requireRole(...roles: Role[]): preHandlerAsyncHookHandler;
  }
  interface FastifyRequest {
    user?: AuthUser;
    /** The signed-in session, for a sign-out to revoke. */
    authSession?: AuthSession;
  }
}

/** On a `requireRole` check: the roles it lets through. */
const ROLE_CHECK = Symbol('role check');

type RoleCheck = ((...args: never[]) => unknown) & { [ROLE_CHECK]: readonly Role[] };
const isRoleCheck = (h: unknown): h is RoleCheck => typeof h === 'function' && ROLE_CHECK in h;

/**
 * The roles that may call a route with a role check (in the order it names them), or null for a route
 * without one (so it cannot answer 403): the API document declares both.
 */
export function rolesOf(route: { preHandler?: unknown; preValidation?: unknown }): readonly Role[] | null {
  const checks = [route.preHandler ?? [], route.preValidation ?? []].flat().filter(isRoleCheck);
  if (checks.length === 0) return null;
  // Every check must pass: a role may call only if each lets it through.
  return checks.map((c) => c[ROLE_CHECK]).reduce((a, b) => a.filter((role) => b.includes(role)));
}

export function hasRoleCheck(route: { preHandler?: unknown; preValidation?: unknown }): boolean {
  return rolesOf(route) !== null;
}

/**
 * RFC 6750 §3: a 401 of the Bearer-protected API names the scheme; a token that was sent and refused also
 * says `invalid_token`. A browser shows a sign-in prompt only for schemes it handles itself (Basic, Digest…),
 * never for Bearer, so the console's fetch calls see the 401 as before.
 */
function challenge(error: unknown, tokenSent: boolean): string | null {
  if (!(error instanceof AppError) || error.status !== 401) return null;
  return tokenSent ? 'Bearer error="invalid_token"' : 'Bearer';
}

/**
 * Reads `Authorization: Bearer …` (RFC 6750: the scheme in any case, one or more spaces, the token).
 * "null"/"undefined" count as no token, as the console may send them.
 */
function bearerToken(request: FastifyRequest): string | undefined {
  const token = bearerCredential(request.headers.authorization);
  if (!token || token === 'null' || token === 'undefined') return undefined;
  return token;
}

export const authPlugin = fp(
  async (app, options: { tokens: TokenService }) => {
    app.decorate('tokens', options.tokens);
    app.decorateRequest('user', undefined);
    app.decorateRequest('authSession', undefined);

    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = bearerToken(request);
      try {
        if (!token) throw new AppError('NO_TOKEN');
        const claims = await options.tokens.verify(token);
        // The user is loaded on every request, so a deleted user loses access at once; the same statement
        // says whether this session was signed out (POST /auth/api/v1/logout). A token without a jti, issued
        // before sign-outs were recorded, cannot have been: it stays valid until it expires.
        const user = await findSessionUser(app.db, claims.sub, claims.jti);
        if (!user || user.revoked) throw new AppError('UNAUTHORIZED');
        request.user = { id: user.id, username: user.username, role: user.role };
        request.authSession = { jti: claims.jti ?? null, exp: claims.exp };
      } catch (error) {
        const header = challenge(error, token !== undefined);
        if (header) reply.header('www-authenticate', header);
        throw error;
      }
    });

    app.decorate('requireRole', (...roles: Role[]): preHandlerAsyncHookHandler => {
      const check: preHandlerAsyncHookHandler = async (request) => {
        if (!request.user) throw new AppError('NO_TOKEN');
        if (!roles.includes(request.user.role)) throw new AppError('FORBIDDEN');
      };
      return Object.assign(check, { [ROLE_CHECK]: roles });
    });

    // Routes declare `preHandler: app.requireRole(…)`; the check is moved before validation so a
    // role that may not call a route learns 403, never the route's validation rules (a 400).
    app.addHook('onRoute', (route) => {
      const handlers = [route.preHandler ?? []].flat();
      const checks = handlers.filter(isRoleCheck);
      if (checks.length === 0) return;
      route.preHandler = handlers.filter((h) => !isRoleCheck(h));
      route.preValidation = [...checks, ...[route.preValidation ?? []].flat()] as typeof route.preValidation;
    });
  },
  { name: 'auth', dependencies: ['database'] },
);

/** Role groups of ADMIN-API.md "Roles". */
export const ANY_ROLE: Role[] = ['ADMIN', 'MANAGER', 'VIEWER'];
export const MANAGERS: Role[] = ['ADMIN', 'MANAGER'];
export const ADMINS: Role[] = ['ADMIN'];
