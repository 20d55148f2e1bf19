const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const MAX_ATTEMPTS = 5;

/**
 * A single-statement write is its own transaction, so it gets the same bounded retry as `inTransaction`
 * (ARCHITECTURE.md "Scale-out path"): a statement that lost a deadlock or a serialization check did nothing
 * and is safe to run again.
 */
export async function retryStatement<T>(statement: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= MAX_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
