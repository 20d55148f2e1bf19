import { randomUUID } from 'node:crypto';
import { isUuid, type Role, type SessionClaims } from '@loyalty/contracts';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from './app-error';

export interface TokenService {
  issue(user: {
    id: string;
    username: string;
    role: Role;
  }): Promise<{ token: string; expiresInSeconds: number }>;
  verify(token: string): Promise<SessionClaims>;
}

const ISSUER = 'loyalty-admin';

/**
 * Seconds a token's times may be off between servers whose clocks differ. It applies to `exp` too: a token is
 * accepted until `exp` plus this, so a sign-out's revocation must be kept as long (`logout`).
 */
export const CLOCK_TOLERANCE_SECONDS = 60;

export function createTokenService(secret: string, ttlSeconds: number): TokenService {
  const key = new TextEncoder().encode(secret);
  return {
    async issue(user) {
      const token = await new SignJWT({ username: user.username, role: user.role })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        // The session's id: a sign-out revokes it (revoked_sessions), which a stateless token could not be.
        .setJti(randomUUID())
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(key);
      return { token, expiresInSeconds: ttlSeconds };
    },
    async verify(token) {
      try {
        // A token of ours always has exp, iat and sub; one without them (signed with a leaked or shared
        // secret, or by a hand-made script) would never expire. maxTokenAge also ends a token issued before
        // SESSION_TTL_SECONDS was lowered at the new lifetime.
        const { payload } = await jwtVerify(token, key, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'sub'],
          maxTokenAge: ttlSeconds,
          // With maxTokenAge an iat in the future is refused: servers behind one load balancer whose clocks
          // differ by a few seconds would sign each other's fresh sessions out.
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        });
        // A jti we did not issue (ours are UUIDs, the type of revoked_sessions.jti) is refused, not looked up.
        if (payload.jti !== undefined && !isUuid(payload.jti)) throw new AppError('UNAUTHORIZED');
        return payload as unknown as SessionClaims;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AppError('TOKEN_EXPIRED');
        throw new AppError('UNAUTHORIZED');
      }
    },
  };
}
