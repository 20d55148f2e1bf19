import { POS_API_KEY_KEY } from './session';

/**
 * Spec sections 6 and 9: a POS API key stored locally, sent as the X-API-Key header on selected calls
 * (the POS API screen hands it to Swagger UI's Authorize). Only an administrator can reveal a key to store.
 */
export function getStoredPosApiKey(): string | null {
  try {
    return localStorage.getItem(POS_API_KEY_KEY) || null;
  } catch {
    return null;
  }
}

export function storePosApiKey(key: string): void {
  localStorage.setItem(POS_API_KEY_KEY, key);
}

export function forgetPosApiKey(): void {
  try {
    localStorage.removeItem(POS_API_KEY_KEY);
  } catch {
    // Nothing stored when storage is unavailable.
  }
}

/** "…a1B2": enough to tell keys apart without showing one. */
export function keyHint(key: string): string {
  return `…${key.slice(-4)}`;
}
