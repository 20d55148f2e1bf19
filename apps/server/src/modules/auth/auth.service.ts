import type { LoginResponse } from '@loyalty/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password';
import type { TokenService } from '../../lib/tokens';
import { insertAudit } from '../audit/audit.repository';
import { findCredentialsByUsername, touchLastLogin } from '../users/users.repository';
import { clearFailures, recentFailures, recordAttempt } from './login-attempts.repository';

type LoginLimits = Pick<
  Config,
  'LOGIN_WINDOW_SECONDS' | 'LOGIN_MAX_FAILURES_PER_USERNAME' | 'LOGIN_MAX_FAILURES_PER_ADDRESS'
>;

export async function login(
  db: Db,
  tokens: TokenService,
  limits: LoginLimits,
  input: { username: string; password: string; address: string },
): Promise<LoginResponse> {
  const failures = await recentFailures(db, input.username, input.address, limits.LOGIN_WINDOW_SECONDS);
  if (
    failures.byUsername >= limits.LOGIN_MAX_FAILURES_PER_USERNAME ||
    failures.byAddress >= limits.LOGIN_MAX_FAILURES_PER_ADDRESS
  ) {
    const minutes = Math.ceil(limits.LOGIN_WINDOW_SECONDS / 60);
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }

  const user = await findCredentialsByUsername(db, input.username);
  const valid = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyAgainstDummy(input.password);

  if (!user || !valid) {
    await inTransaction(db, async (trx) => {
      await recordAttempt(trx, input.username, input.address, false);
      await insertAudit(trx, {
        username: input.username,
        message: `Failed sign-in for '${input.username}' from ${input.address}`,
        targetType: 'auth',
        targetId: user?.id ?? null,
      });
    });
    throw new AppError('INVALID_CREDENTIALS');
  }

  await inTransaction(db, async (trx) => {
    await touchLastLogin(trx, user.id);
    await clearFailures(trx, user.username);
    await recordAttempt(trx, user.username, input.address, true);
    await insertAudit(trx, {
      username: user.username,
      message: `Signed in from ${input.address}`,
      targetType: 'auth',
      targetId: user.id,
    });
  });
  return tokens.issue(user);
}
