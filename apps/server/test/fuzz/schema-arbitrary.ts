import fc from 'fast-check';

/** The subset of OpenAPI 3.0 schema keywords our document uses. */
export interface Schema {
  type?: string;
  enum?: unknown[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  nullable?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  multipleOf?: number;
  format?: string;
  default?: unknown;
}

/** Strings PostgreSQL cannot store, and other awkward text (issue 14). */
const nastyStrings = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  'x\ud800',
  '\udfff',
  '😀',
  'Grüße',
  "'; drop table accounts; --",
  '%00',
  '../../etc/passwd',
  '\u202e',
  'a'.repeat(1000),
];

const awkwardNumbers = [
  0, -1, 1, 0.001, 0.005, 0.01, 1.234, 2147483647, 2147483648, 9007199254740991, 1e15, -1e15, 1e308,
];

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 40, min + 40);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('1990-01-01T00:00:00Z'),
        max: new Date('2110-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString());
  }
  if (schema.format === 'email') return fc.emailAddress();
  const plain = fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
  const boundaries: string[] = [];
  if (schema.maxLength !== undefined && schema.maxLength <= 500) {
    boundaries.push('k'.repeat(schema.maxLength), 'k'.repeat(schema.maxLength + 1));
  }
  if (min > 0) boundaries.push('k'.repeat(min), 'k'.repeat(min - 1));
  return fc.oneof({ arbitrary: plain, weight: 4 }, fc.constantFrom(...nastyStrings, ...boundaries));
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1e6;
  const max = schema.maximum ?? 1e6;
  const inRange = integer
    ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).map((n) => Math.round(n * 100) / 100);
  const edges = [min, max, min - 0.01, max + 1, ...awkwardNumbers];
  return fc.oneof({ arbitrary: inRange, weight: 4 }, fc.constantFrom(...edges));
}

/**
 * A value for `schema`: mostly valid, often at its boundaries, sometimes just outside them, so the
 * server sees both what it must accept and what it must refuse with a 4xx.
 */
export function arbitraryOf(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 });
  const base = baseArbitrary(schema, depth);
  return schema.nullable ? fc.oneof({ arbitrary: base, weight: 5 }, fc.constant(null)) : base;
}

function baseArbitrary(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (schema.enum)
    return fc.oneof({ arbitrary: fc.constantFrom(...schema.enum), weight: 5 }, fc.constant('NOT-AN-ENUM'));
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return fc.oneof(...union.map((s) => arbitraryOf(s, depth + 1)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], depth + 1);
  switch (schema.type) {
    case 'string':
      return stringOf(schema);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(arbitraryOf(schema.items, depth + 1), { minLength, maxLength: Math.max(minLength, 3) });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(
        Object.entries(properties).map(([k, s]) => [k, arbitraryOf(s, depth + 1)]),
      );
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((k) => k in shape) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
