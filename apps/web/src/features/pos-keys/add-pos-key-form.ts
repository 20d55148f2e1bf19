import {
  API_KEY_ALPHABET,
  API_KEY_GENERATED_LENGTH,
  type CreatePosKeyRequest,
  type PosKeyStatus,
} from '@loyalty/contracts';

export interface AddPosKeyValues {
  name: string;
  address: string;
  apiKey: string;
  status: PosKeyStatus;
}

export const emptyAddPosKey: AddPosKeyValues = { name: '', address: '', apiKey: '', status: 'active' };

export const POS_KEY_REQUIRED = 'Name and API Key are required';

/** Spec section 5 "Create POS key": name and key are required once trimmed; the server checks the rest. */
export function validateAddPosKey(values: AddPosKeyValues): string | null {
  return values.name.trim() && values.apiKey.trim() ? null : POS_KEY_REQUIRED;
}

export function toCreatePosKeyRequest(values: AddPosKeyValues): CreatePosKeyRequest {
  return {
    name: values.name.trim(),
    address: values.address.trim() || null,
    apiKey: values.apiKey.trim(),
    status: values.status,
  };
}

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
