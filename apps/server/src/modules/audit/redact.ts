/**
 * Defence in depth: services never pass secrets to the audit log, and this removes any that slip
 * through (by key name), so a password hash or an API key never lands in audit JSON.
 */
const SECRET_KEYS = /^(password|password_?hash|api_?key|key|token|secret|key_?hash|key_?cipher)$/i;

export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !SECRET_KEYS.test(key))
        .map(([key, v]) => [key, redactSecrets(v)]),
    );
  }
  return value;
}
