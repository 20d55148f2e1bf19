const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `text` is a UUID. Repositories check ids from URLs and searches with it first: a malformed id
 * cannot match any row, and PostgreSQL would otherwise answer with a cast error.
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}
