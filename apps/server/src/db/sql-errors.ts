/**
 * What a PostgreSQL error means to the code that meets it, by SQLSTATE. (A lost connection is
 * `connection-errors.ts`: it has no single code.)
 */

const codeOf = (error: unknown) => (error as { code?: unknown } | null | undefined)?.code;

/** 23505: a unique index refused the row. Concurrent creates of one name/key/id meet here; the index decides. */
export function isUniqueViolation(error: unknown): boolean {
  return codeOf(error) === '23505';
}

/**
 * 40001 serialization failure, 40P01 deadlock detected: the statement or transaction lost a race and
 * did nothing, so it is safe to run again (ARCHITECTURE.md "Scale-out path").
 */
export function isLostRace(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}
