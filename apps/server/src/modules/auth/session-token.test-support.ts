import { SignJWT } from 'jose';
import { TEST_JWT_SECRET } from '../../../test/helper';

/**
 * An ADMIN session token signed by hand with the test apps' key, with exactly the claims given: what the
 * server's own `issue` never makes (no exp, no iat, an old iat, no jti) is what these tests send.
 */
export function signAdminToken(
  subject: string,
  claims: { iat?: number; exp?: number; jti?: string },
): Promise<string> {
  const jwt = new SignJWT({ username: 'admin', role: 'ADMIN' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuer('loyalty-admin');
  if (claims.jti !== undefined) jwt.setJti(claims.jti);
  if (claims.iat !== undefined) jwt.setIssuedAt(claims.iat);
  if (claims.exp !== undefined) jwt.setExpirationTime(claims.exp);
  return jwt.sign(new TextEncoder().encode(TEST_JWT_SECRET));
}
