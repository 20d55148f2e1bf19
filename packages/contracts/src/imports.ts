import { z } from 'zod';
import { canonicalClientId, clientIdInput } from './accounts';
import { businessTimestamp, isoTimestamp } from './common';
import { manualAccrualHeaders } from './operations';

/**
 * PROGRAMME-API.md §4 "Import of members" and "Bulk credits": CSV in, a report by line out. The row
 * schemas take the CSV cells as text (empty cell = absent) and are the one definition of a valid row.
 */
export const importKinds = ['accounts', 'accruals'] as const;
export type ImportKind = (typeof importKinds)[number];

/**
 * The columns of each kind's header row, in any order; `required` must be there. A bulk credit names the
 * account by exactly one of clientId or cardNumber.
 */
export const importColumns = {
  accounts: { known: ['clientId', 'cardNumber', 'points', 'expiresAt', 'reason'], required: ['clientId'] },
  accruals: {
    known: ['clientId', 'cardNumber', 'points', 'reason'],
    required: ['points'],
    oneOf: ['clientId', 'cardNumber'],
  },
} as const;

export const importQuery = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: validate and report, write nothing'),
  skipInvalid: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .describe('true: write the valid rows and report the others; false: one invalid row writes nothing'),
});
export type ImportQuery = z.input<typeof importQuery>;

export const importHeadersSchema = z.looseObject({
  // The key's rule is manual accrual's; what it covers here is the whole file.
  'idempotency-key': manualAccrualHeaders.shape['idempotency-key'].describe(
    'Bulk credits only: the whole file is one unit under this key (default: SHA-256 of the body), the ' +
      "programme's, not the poster's. The same file again, whoever posts it and with any skipInvalid, gets the " +
      'first answer (header Idempotent-Replayed: true); a dry run of it too (dryRun false: the file is imported). ' +
      'Another file with the key is 409.',
  ),
});

export const importError = z.object({
  /** The file's line (the header is line 1). */
  line: z.number().int(),
  code: z.string(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importError>;

export const importReport = z.object({
  dryRun: z.boolean(),
  rows: z.number().int().describe('data rows in the file'),
  created: z.number().int(),
  unchanged: z.number().int(),
  failed: z.number().int().describe('error rows, all of them'),
  errors: z
    .array(importError)
    .describe('the first 1,000 error rows by line (`failed` counts them all): enough to fix a file by'),
  /** The import's audit entry target (`targetType=import`); absent for a dry run. */
  importId: z.uuid().optional(),
  duplicateOf: z
    .object({ importId: z.uuid(), createdAt: isoTimestamp })
    .optional()
    .describe(
      'Bulk credits, dry run only: the latest completed import that credited exactly these rows (the same ' +
        'account references, points and reasons, in any order and however the file was saved), so the file ' +
        "would credit them again: its Idempotency-Key (by default the SHA-256 of the body) is not that import's.",
    ),
});
export type ImportReport = z.infer<typeof importReport>;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const tooLong = (max: number) => `must be at most ${max} characters`;
const text = (max: number) =>
  z.preprocess(blankToUndefined, z.string().trim().max(max, tooLong(max)).optional());
const POINTS_TEXT = /^\d{1,10}(\.\d{1,2})?$/;
const pointsText = z
  .string('points is required')
  .trim()
  // A bulk credit never takes points away: "-5" hears that, not a word about decimals.
  .regex(POINTS_TEXT, 'must be a positive number of points with at most 2 decimal places')
  .refine((v) => Number(v) <= 1_000_000_000, 'must be at most 1,000,000,000');

/** A card number issued as given (8–19 digits). */
export const importCardNumber = z
  .string()
  .trim()
  .regex(/^\d{8,19}$/, 'must be 8 to 19 digits');

export const accountImportRow = z
  .object({
    clientId: z.preprocess(
      blankToUndefined,
      // The max has its own message: the string's message would otherwise answer every issue, and a
      // client ID that is too long was reported as "clientId is required". In its canonical form, as an
      // account created by hand: `José` in NFD or `member-B` with a zero-width space is the same member.
      clientIdInput({
        required: 'clientId is required',
        tooLong: tooLong(100),
        control: 'must not contain tabs, line breaks or other control characters',
      }),
    ),
    cardNumber: z.preprocess(blankToUndefined, importCardNumber.optional()),
    points: z.preprocess(blankToUndefined, pointsText.optional()),
    expiresAt: z.preprocess(blankToUndefined, businessTimestamp().optional()),
    reason: text(500),
  })
  .refine((row) => row.expiresAt === undefined || (row.points !== undefined && Number(row.points) > 0), {
    // The report prefixes the field's name ("expiresAt: needs points").
    message: 'needs points',
    path: ['expiresAt'],
  });

// An opening lot that has already expired would be points nobody can spend, but "in the future" is not a
// property of the row alone: the same row imported while its date was ahead is unchanged once the date has
// passed (PROGRAMME-API.md §4), so the server refuses a past expiresAt only on a row that would create an
// account (imports.repository.ts `refuseExpiredOpenings`), with this message.
export const EXPIRES_AT_PAST = 'expiresAt: must be in the future';
export type AccountImportRow = z.output<typeof accountImportRow>;

export const accrualImportRow = z
  .object({
    // The account is found by the client ID's canonical form, as it was stored; a cell of only invisible
    // characters is an empty one.
    clientId: z.preprocess(
      (v) => (typeof v === 'string' && canonicalClientId(v) === '' ? undefined : v),
      z.string().overwrite(canonicalClientId).max(100, tooLong(100)).optional(),
    ),
    cardNumber: z.preprocess(blankToUndefined, importCardNumber.optional()),
    points: z.preprocess(
      blankToUndefined,
      pointsText.refine((v) => Number(v) > 0, 'must be greater than 0'),
    ),
    reason: text(500),
  })
  .refine((row) => (row.clientId === undefined) !== (row.cardNumber === undefined), {
    message: 'give either clientId or cardNumber',
    path: ['clientId'],
  });
export type AccrualImportRow = z.output<typeof accrualImportRow>;
