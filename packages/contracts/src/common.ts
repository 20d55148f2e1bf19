import { z } from 'zod';

/** Default and maximum page sizes of every list (ADMIN-API.md "Lists"). */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
});

/**
 * `format=csv` on a list: every row matching its filters, in its sort (page and size do not apply), as
 * text/csv with a header row of the JSON field names (PROGRAMME-API §4 "Export").
 */
export const listFormat = z
  .enum(['json', 'csv'])
  .optional()
  .describe('csv: every matching row (no page) as text/csv, header row of the JSON field names');

/**
 * `sort=field,asc|desc` restricted to the given fields; an unknown field is a 400, never ignored. A field without
 * a direction sorts ascending, as `sort=username` reads (and as Spring's `sort` parameter, which this list API
 * mirrors, does); it sorted descending before.
 */
export function sortParam<const F extends readonly [string, ...string[]]>(fields: F) {
  const pattern = new RegExp(`^(${fields.join('|')})(,(asc|desc))?$`, 'i');
  return z
    .string()
    .regex(pattern, `sort must be one of ${fields.join(', ')} with optional ,asc or ,desc`)
    .transform((value) => {
      const [field, direction] = value.split(',');
      return {
        field: fields.find((f) => f.toLowerCase() === field?.toLowerCase()) as F[number],
        direction: (direction?.toLowerCase() === 'desc' ? 'desc' : 'asc') as 'asc' | 'desc',
      };
    })
    .optional();
}

export function pagedResponse<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
  });
}

export interface Paged<T> {
  content: T[];
  totalElements: number;
  totalPages: number;
  page: number;
  size: number;
}

/** ISO-8601 UTC timestamp as sent over the wire. */
export const isoTimestamp = z.string().describe('ISO-8601 UTC timestamp');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `text` is a UUID, in either case. The server's repositories check ids from URLs and searches with
 * it first: a malformed id cannot match any row, and PostgreSQL would otherwise answer with a cast error.
 */
export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/**
 * The business range every timestamp the API accepts must fall in: [2000-01-01, 2100-01-01). Inside
 * PostgreSQL's range with room to spare, and far enough from "year 0" or "year 275760" that no date
 * arithmetic overflows (issue 15.4: `0000-01-01` was a 500).
 */
export const BUSINESS_TIME_MIN = '2000-01-01T00:00:00Z';
export const BUSINESS_TIME_MAX = '2100-01-01T00:00:00Z';
const businessMinMs = Date.parse(BUSINESS_TIME_MIN);
const businessMaxMs = Date.parse(BUSINESS_TIME_MAX);

/**
 * The offset's minutes east of UTC, at most 14 hours either way: the world's zones run from −12:00 to +14:00,
 * and PostgreSQL refuses an offset past 15:59 (a timestamp that reached it was a 500).
 */
const MAX_OFFSET_MINUTES = 14 * 60;
const OFFSET = /([+-])(\d{2}):?(\d{2})?$/;

function offsetInRange(v: string): boolean {
  const m = OFFSET.exec(v);
  if (!m || v.endsWith('Z')) return true;
  return Number(m[2]) * 60 + Number(m[3] ?? 0) <= MAX_OFFSET_MINUTES;
}

/** An ISO-8601 date-time with Z or an offset, inside the business range; the one schema for accepted timestamps. */
export function businessTimestamp(message = 'must be an ISO-8601 date-time with a time zone') {
  return z.iso
    .datetime({ offset: true, message })
    .refine(offsetInRange, 'must have a time zone offset between -14:00 and +14:00')
    .refine(
      (v) => {
        const ms = Date.parse(v);
        return ms >= businessMinMs && ms < businessMaxMs;
      },
      `must be between ${BUSINESS_TIME_MIN.slice(0, 10)} and ${BUSINESS_TIME_MAX.slice(0, 10)}`,
    )
    .meta({
      description: `ISO-8601 date-time with Z or an offset, from ${BUSINESS_TIME_MIN} (inclusive) to ${BUSINESS_TIME_MAX} (exclusive)`,
      example: '2025-01-31T00:00:00Z',
    });
}

/**
 * Points and money: exact decimals with at most 2 places, as numbers on the wire. `multipleOf` (zod
 * compares it float-safely) so the API document states the rule too.
 */
export const decimal2 = z.number().finite().multipleOf(0.01, 'must have at most 2 decimal places');

/**
 * An identifier a person reads and types back (a client ID): something visible, once spaces and invisible
 * characters (zero-width spaces and joiners, a byte order mark) are set aside, and no control character (a tab,
 * a line break), which no one types into a search box. `.trim()` keeps both: they are not white space.
 */
export const hasVisibleCharacter = (value: string) => /[^\p{Cf}\p{Z}\s]/u.test(value);
export const hasNoControlCharacter = (value: string) => !/\p{Cc}/u.test(value);

/**
 * Text PostgreSQL cannot store: NUL (refused in `text` and in `jsonb`) and lone UTF-16 surrogates (no UTF-8 form;
 * drivers would silently replace them). The server refuses it anywhere in a request (plugins/input.ts); the
 * console never reads it from an address, so a link holding it opens the plain list instead of a 400.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export function unstorableText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/**
 * An amount sent as text for exactness ("12.50", "-3.00"). One instance, so a CSV export knows a column holding
 * it by its schema: a leading minus there is a sign, not a formula.
 */
export const decimalText = z.string().describe('signed decimal with 2 places, as text: "12.50", "-3.00"');

/** The longest SKU a till sends (POS receipt lines and returns); a rule or an exclusion can name any of them. */
export const SKU_MAX_LENGTH = 128;

export const uuid = z.uuid();

/**
 * An id a caller sends (path, query or body): a UUID in any case, as RFC 9562 allows, lower-cased to the form the
 * database stores. Every lookup, comparison (a rule's stores), audit entry and erasure then sees one spelling of
 * an id; ids as typed once left audit entries that their target's trail and its erasure missed.
 */
export const idInput = z.uuid().transform((id) => id.toLowerCase());

export const idParam = z.object({ id: idInput });

export const errorBody = z.object({
  status: z.number().int(),
  message: z.string(),
  code: z.string(),
  requestId: z.string().optional(),
  details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
