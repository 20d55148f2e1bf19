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
 * 23503: a row names one that is gone, by `constraint` (e.g. a user deleted while their request ran). Only the
 * constraint a caller expects to race means that; any other is a fault, left to answer 500.
 */
export function isForeignKeyViolation(error: unknown, constraint: string): boolean {
  return codeOf(error) === '23503' && (error as { constraint?: unknown }).constraint === constraint;
}

/**
 * 40001 serialization failure, 40P01 deadlock detected: the statement or transaction lost a race and
 * did nothing, so it is safe to run again (ARCHITECTURE.md "Scale-out path").
 */
export function isLostRace(error: unknown): boolean {
  const code = codeOf(error);
  return code === '40001' || code === '40P01';
}

/** 42P01: the table does not exist (a database never migrated). */
export function isUndefinedTable(error: unknown): boolean {
  return codeOf(error) === '42P01';
}
