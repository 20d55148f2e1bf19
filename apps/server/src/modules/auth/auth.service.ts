import type { LoginResponse } from '@loyalty/contracts';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { inTransaction } from '../../db/transaction';
import { AppError } from '../../lib/app-error';
import { verifyAgainstDummy, verifyPassword } from '../../lib/password';
import { CLOCK_TOLERANCE_SECONDS, type TokenService } from '../../lib/tokens';
import type { AuthSession, AuthUser } from '../../plugins/auth';
import { insertAudit } from '../audit/audit.repository';
import { findCredentialsByUsername, touchLastLogin } from '../users/users.repository';
import {
  claimAttempt,
  clearFailures,
  dropAttempt,
  pruneAttempts,
  recentFailures,
  recordAttempt,
  secondsUntilAllowed,
} from './login-attempts.repository';
import { revokeSession } from './sessions.repository';
import { throttleAddress } from './throttle-address';

type LoginLimits = Pick<
  Config,
  | 'LOGIN_WINDOW_SECONDS'
  | 'LOGIN_MAX_FAILURES_PER_USERNAME'
  | 'LOGIN_MAX_FAILURES_PER_ADDRESS'
  | 'LOGIN_SLOWDOWN_BASE_MS'
  | 'LOGIN_SLOWDOWN_MAX_MS'
>;

/**
 * How long a sign-in of a username waits, given its failures from every address in the window: nothing
 * up to the per-username limit, then the base delay doubling per further failure, capped (OWASP: slow
 * the account down, do not lock it, or anyone can lock `admin` out with a few requests).
 */
export function signInDelayMs(failuresByUsername: number, limits: LoginLimits): number {
  const over = failuresByUsername - limits.LOGIN_MAX_FAILURES_PER_USERNAME;
  if (over < 0) return 0;
  return Math.min(limits.LOGIN_SLOWDOWN_MAX_MS, limits.LOGIN_SLOWDOWN_BASE_MS * 2 ** Math.min(over, 20));
}

/**
 * The audit entry of a sign-in that did not succeed (wrong password, unknown user, refused). A username that
 * names no user is not written: it is often a password typed into the wrong field, and no secret may appear
 * in the audit (ADMIN-API "Audit"); the address still shows a run of them.
 */
const failedSignIn = (user: { id: string; username: string } | undefined, address: string, reason = '') => ({
  username: user?.username ?? null,
  message: `Failed sign-in for ${user ? `'${user.username}'` : 'an unknown username'} from ${address}${reason}`,
  targetType: 'auth' as const,
  targetId: user?.id ?? null,
});

/** A sign-in refused by the limits: 429 TOO_MANY_REQUESTS, with the seconds to wait (the route's Retry-After). */
export class SignInRefused extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super('TOO_MANY_REQUESTS', message);
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function login(
  db: Db,
  tokens: TokenService,
  limits: LoginLimits,
  input: { username: string; password: string; address: string },
): Promise<LoginResponse> {
  // The attempt is written as a failure first, then the failures are counted with it: of a burst of
  // concurrent guesses each counts every one written before it, so no more than the limit get past the
  // check (counted only after their passwords were checked, a whole burst did).
  // Counted per IPv4 address or IPv6 /64 (`throttleAddress`); the audit shows the address itself.
  const from = throttleAddress(input.address);
  const attempt = await claimAttempt(db, input.username, from);
  const failures = await recentFailures(db, input.username, from, limits.LOGIN_WINDOW_SECONDS);
  await pruneAttempts(db, limits.LOGIN_WINDOW_SECONDS);
  // Blocked: this username from this address, or this address for any username. Never the username
  // everywhere, which would let any address lock a user out.
  if (
    failures.byPair > limits.LOGIN_MAX_FAILURES_PER_USERNAME ||
    failures.byAddress > limits.LOGIN_MAX_FAILURES_PER_ADDRESS
  ) {
    // Refused before any password was checked, so the attempt is not a failure (it goes); but the refusal is
    // audited like one, with the same message and a reason: a run of refusals is what a guessing attack
    // looks like in the log, and it used to leave no trace there at all.
    await inTransaction(db, async (trx) => {
      await dropAttempt(trx, attempt);
      const user = await findCredentialsByUsername(trx, input.username);
      await insertAudit(trx, failedSignIn(user, input.address, ': refused, too many failed attempts'));
    });
    // How long until this pair may try again (the Retry-After header), and the same wait in the message.
    const seconds = await secondsUntilAllowed(db, input.username, from, limits.LOGIN_WINDOW_SECONDS, {
      byPair:
        failures.byPair > limits.LOGIN_MAX_FAILURES_PER_USERNAME
          ? limits.LOGIN_MAX_FAILURES_PER_USERNAME
          : null,
      byAddress:
        failures.byAddress > limits.LOGIN_MAX_FAILURES_PER_ADDRESS
          ? limits.LOGIN_MAX_FAILURES_PER_ADDRESS
          : null,
    });
    const minutes = Math.ceil(seconds / 60);
    throw new SignInRefused(
      seconds,
      `Too many failed sign-in attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }

  // Slowed: a username under attack from many addresses, right or wrong password alike (so the delay
  // says nothing about the password).
  // This attempt's own claim is not one of the failures that slow it down.
  const delay = signInDelayMs(failures.byUsername - 1, limits);
  if (delay > 0) await pause(delay);

  const user = await findCredentialsByUsername(db, input.username);
  const valid = user
    ? await verifyPassword(user.password_hash, input.password)
    : await verifyAgainstDummy(input.password);

  if (!user || !valid) {
    // The claimed attempt stays as the failure.
    await inTransaction(db, async (trx) => {
      await insertAudit(trx, failedSignIn(user, input.address));
    });
    throw new AppError('INVALID_CREDENTIALS');
  }

  await inTransaction(db, async (trx) => {
    // Deleted while its password was being checked: no session, and no "Signed in" after "Deleted user".
    if (!(await touchLastLogin(trx, user.id))) throw new AppError('INVALID_CREDENTIALS');
    // This attempt's claim goes with the username's other failures.
    await clearFailures(trx, user.username);
    await recordAttempt(trx, user.username, from, true);
    await insertAudit(trx, {
      username: user.username,
      message: `Signed in from ${input.address}`,
      targetType: 'auth',
      targetId: user.id,
    });
  });
  return tokens.issue(user);
}

/**
 * Ends the session on the server: its token is refused from now on (until it expires, when it would be anyway),
 * so a copy of it taken before the sign-out no longer works. Audited like the sign-in.
 */
export async function logout(db: Db, user: AuthUser, session: AuthSession, address: string): Promise<void> {
  await inTransaction(db, async (trx) => {
    // A token issued before sign-outs were recorded has no jti to revoke: it stays valid until it expires.
    // Kept as long as the token is accepted: until exp plus the clock tolerance. Kept only until exp, a
    // sign-out in that last minute was pruned by its own statement and the token went on working.
    const acceptedUntil = (session.exp + CLOCK_TOLERANCE_SECONDS) * 1000;
    if (session.jti) await revokeSession(trx, session.jti, new Date(acceptedUntil));
    await insertAudit(trx, {
      username: user.username,
      message: `Signed out from ${address}`,
      targetType: 'auth',
      targetId: user.id,
    });
  });
}
