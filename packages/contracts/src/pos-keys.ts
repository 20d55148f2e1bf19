import { z } from 'zod';
import {
  hasNoControlCharacter,
  hasVisibleCharacter,
  isoTimestamp,
  listFormat,
  pageQuery,
  sortParam,
} from './common';

export const posKeyStatuses = ['active', 'inactive'] as const;
export const posKeyStatus = z.enum(posKeyStatuses);
export type PosKeyStatus = z.infer<typeof posKeyStatus>;

/** Shortest API key the server accepts; the console's generator makes keys of exactly this length. */
export const API_KEY_MIN_LENGTH = 32;
export const API_KEY_GENERATED_LENGTH = 32;
export const API_KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A POS key as listed: never the key itself (only `reveal` returns it). */
export const posKey = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  status: posKeyStatus,
  createdAt: isoTimestamp,
  lastUsedAt: isoTimestamp.nullable(),
});
export type PosKey = z.infer<typeof posKey>;

export const posKeyListQuery = pageQuery.extend({
  format: listFormat,
  status: posKeyStatus.optional(),
  sort: sortParam(['name', 'address', 'status', 'createdAt', 'lastUsedAt']),
});
export type PosKeyListQuery = z.input<typeof posKeyListQuery>;

const REQUIRED = 'Name and API Key are required';
const noControl = (label: string) =>
  `${label} must not contain tabs, line breaks or other control characters`;

export const createPosKeyRequest = z.object({
  // Shown in the POS Keys list, Operations History and the audit log: something visible, no control character.
  name: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(200)
    .refine(hasVisibleCharacter, REQUIRED)
    .refine(hasNoControlCharacter, noControl('Name')),
  address: z
    .string()
    .trim()
    .max(500)
    .refine(hasNoControlCharacter, noControl('Address'))
    .nullish()
    .transform((v) => (v ? v : null)),
  apiKey: z
    .string()
    .trim()
    .min(1, REQUIRED)
    .pipe(
      z
        .string()
        .min(API_KEY_MIN_LENGTH, `API key must be at least ${API_KEY_MIN_LENGTH} characters`)
        .max(256, 'API key must be at most 256 characters')
        // It travels in the X-API-Key header: visible ASCII only.
        .regex(/^[\x21-\x7E]+$/, 'API key may contain printable ASCII characters only, without spaces'),
    )
    // The document shows the pipe's input side; state the real rule there too.
    .meta({ minLength: API_KEY_MIN_LENGTH, maxLength: 256, pattern: '^[\\x21-\\x7E]+$' }),
  status: posKeyStatus.default('active'),
});
export type CreatePosKeyRequest = z.input<typeof createPosKeyRequest>;

export const updatePosKeyRequest = z.object({ status: posKeyStatus });
export type UpdatePosKeyRequest = z.infer<typeof updatePosKeyRequest>;

export const posKeyReveal = z.object({ key: z.string() });
export type PosKeyReveal = z.infer<typeof posKeyReveal>;
