import { hash, verify } from '@node-rs/argon2';

/** Argon2id with the OWASP minimum parameters (19 MiB, 2 iterations, 1 lane); ~40 ms here. */
const params = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, params);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
let dummyVerifications = 0;

/** How many dummy verifications this process has run: lets a test see that an unknown user paid for one. */
export function dummyVerificationCount(): number {
  return dummyVerifications;
}

/**
 * Spends the same time as a real verification when the user does not exist, so the answer's timing
 * does not tell whether a username is registered.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  dummyVerifications++;
  return false;
}
