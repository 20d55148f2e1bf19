/**
 * The token of an `Authorization: Bearer …` header (RFC 6750 §2.1: the scheme in any case, one or more spaces,
 * the token, nothing after it), or undefined. The sessions and the metrics token read it the same way.
 */
export function bearerCredential(header: string | undefined): string | undefined {
  return /^bearer +([^ ]+)$/i.exec(header ?? '')?.[1];
}
