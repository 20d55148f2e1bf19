import { API_KEY_ALPHABET, API_KEY_GENERATED_LENGTH } from '@loyalty/contracts';

/**
 * 32 characters from the contracts' alphabet, drawn with the platform's CSPRNG. Bytes at or above the
 * largest multiple of the alphabet size are redrawn, so every character is equally likely (no modulo bias).
 */
export function generateApiKey(length = API_KEY_GENERATED_LENGTH, alphabet = API_KEY_ALPHABET): string {
  const limit = 256 - (256 % alphabet.length);
  let key = '';
  while (key.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && key.length < length) key += alphabet[byte % alphabet.length];
    }
  }
  return key;
}
