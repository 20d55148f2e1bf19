import { isIP } from 'node:net';
import { PASSWORD_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@loyalty/contracts';
import { z } from 'zod';
import { IDLE_IN_TRANSACTION_TIMEOUT_MS } from './db/connection';
import { ConfigError } from './lib/config-error';

/**
 * Configuration comes from the environment only (ADMIN-API.md "Start-up and configuration").
 * A bad value stops the start with a message naming the variable, before anything listens.
 */
/**
 * A duration in milliseconds that becomes a timer (or PostgreSQL's `idle_in_transaction_session_timeout`):
 * at most 2^31 − 1, the most either takes. Node runs a longer timer after 1 ms, so a month's interval would
 * have run its job back to back, and PostgreSQL refuses a longer timeout at every connection.
 */
const milliseconds = () => z.coerce.number().int().min(0).max(2_147_483_647);

/** Every retry delay and event age goes into SQL date arithmetic: a huge one failed there, long after the start. */
const THIRTY_DAYS_IN_SECONDS = 30 * 24 * 3600;
const MAX_RETENTION_DAYS = 36_500;

/**
 * A DATABASE_URL as node-postgres reads it, or undefined where it cannot (it threw `Invalid URL` at the first
 * query). node-postgres also takes `user@/db?host=…` (a Unix socket folder), which WHATWG URL refuses: that
 * form is read with a stand-in host, as node-postgres does. A URL without a host (`postgres:///db`) is libpq's
 * and node-postgres's PGHOST or localhost, and fine.
 */
export function parsePostgresUrl(value: string): URL | undefined {
  for (const candidate of [value, value.replace('@/', '@stand-in/')]) {
    try {
      return new URL(candidate);
    } catch {
      // The next reading, or none.
    }
  }
  return undefined;
}

/**
 * The checks of JWT_SECRET and POS_KEY_SECRET, also applied to the ones kept in DATA_DIR/secrets.json
 * (lib/secrets.ts): a one-character JWT key from a hand-edited file signs sessions as badly as from the environment.
 */
export const secretChecks = {
  jwtSecret: z.string().min(32, 'must be at least 32 characters'),
  posKeySecret: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters (a 256-bit key)'),
};

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .refine(
      (value) => parsePostgresUrl(value) !== undefined,
      'is not a valid URL (postgres://user:password@host:5432/database)',
    )
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  // The first admin must be able to sign in: the bounds of the sign-in form (contracts auth.ts). A blank
  // password is refused with every whitespace-only value (loadConfig).
  ADMIN_USERNAME: z
    .string()
    .trim()
    .min(1)
    .max(
      USERNAME_MAX_LENGTH,
      `must be at most ${USERNAME_MAX_LENGTH} characters (the longest a sign-in takes)`,
    )
    .default('admin'),
  ADMIN_PASSWORD: z
    .string()
    .min(8, 'must be at least 8 characters')
    .max(
      PASSWORD_MAX_LENGTH,
      `must be at most ${PASSWORD_MAX_LENGTH} characters (the longest a sign-in takes)`,
    )
    .optional(),
  JWT_SECRET: secretChecks.jwtSecret.optional(),
  POS_KEY_SECRET: secretChecks.posKeySecret.optional(),
  SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 24 * 3600)
    .default(28800),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Reaches SQL as an interval (`now() - window`): bounded like the session, at 30 days. */
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).max(THIRTY_DAYS_IN_SECONDS).default(900),
  LOGIN_MAX_FAILURES_PER_USERNAME: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(30),
  /** Past LOGIN_MAX_FAILURES_PER_USERNAME failures from all addresses, each sign-in of that username waits this long, doubling per further failure… */
  LOGIN_SLOWDOWN_BASE_MS: milliseconds().default(500),
  /** …up to this. The username is slowed, never blocked, so nobody can lock another user out. */
  LOGIN_SLOWDOWN_MAX_MS: milliseconds().default(5000),
  /**
   * Group commit of POS writes (db/group-commit.ts): transactions of one card doing their writes at once on a
   * server; the card's writes that arrive meanwhile share the next one. 0 turns it off (each write alone).
   */
  POS_GROUP_COMMIT_LANES: z.coerce.number().int().min(0).max(8).default(1),
  /** The most POS writes of one card one group-committed transaction takes. */
  POS_GROUP_COMMIT_MAX: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Set-based batches of POS writes across cards (modules/ledger/set-batches.ts), per kind of write: batches
   * of a kind being written at once on a server; writes of that kind that arrive meanwhile share the next
   * one (a batch whose writes have waited 250 ms for their locks hands its lane on, one per kind at a time:
   * modules/ledger/lane-hand-on.ts). 0 turns them off (each write alone).
   */
  POS_SET_BATCH_LANES: z.coerce.number().int().min(0).max(8).default(1),
  /** The most writes one set-based batch takes. */
  POS_SET_BATCH_MAX: z.coerce.number().int().min(1).max(256).default(16),
  /** How often the hold sweeper voids expired holds; 0 turns it off (tests drive it by hand). */
  HOLD_SWEEP_INTERVAL_MS: milliseconds().default(30_000),
  /** How often the points-expiry sweeper expires lots whose time has come (PROGRAMME-API §1); 0 turns it off. */
  POINTS_EXPIRY_INTERVAL_MS: milliseconds().default(60_000),
  /**
   * PostgreSQL server only: a transaction left idle this long (a hung server, or one cut off from the database)
   * is ended by PostgreSQL and its locks released; 0 leaves the server's own setting (db/connection.ts).
   */
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: milliseconds().default(IDLE_IN_TRANSACTION_TIMEOUT_MS),
  /**
   * On SIGTERM or SIGINT, first this long with `/readyz` answering 503 while every request is still served, so
   * a balancer that routes by `/readyz` takes the server out before its port closes. 0 (the default): no
   * balancer is assumed; set it to the balancer's health-check interval times its unhealthy threshold.
   */
  SHUTDOWN_DRAIN_MS: milliseconds().default(0),
  /**
   * Then the port closes and the requests in flight have this long to finish; after it, the connections still
   * open (a client still uploading an import, a kept-alive idle one) are closed and the process exits.
   */
  SHUTDOWN_GRACE_MS: milliseconds().default(10_000),
  /** Largest CSV body an import accepts (PROGRAMME-API.md §4); above it the answer is 413. */
  IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(50 * 1024 * 1024),
  /** Seconds before each retry of a failed webhook delivery; after the last one it is `failed` (PROGRAMME-API §5). */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'must be seconds, comma-separated (e.g. 5,60,300)')
    .default('5,60,300,1800,7200,21600,43200')
    .transform((v) => v.split(',').map(Number))
    .refine((delays) => delays.every((s) => s <= THIRTY_DAYS_IN_SECONDS), {
      message: `each retry must be at most ${THIRTY_DAYS_IN_SECONDS} seconds (30 days)`,
    }),
  /** Allows http and private, loopback and link-local webhook targets (on-premises and tests). */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false'], 'must be true or false')
    .default('false')
    .transform((v) => v === 'true'),
  /** How long a receiver has to answer; 10 s by the contract (tests set shorter, and the browser tests longer). */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** How often each server's delivery worker looks for due deliveries; 0 turns it off (tests drive it by hand). */
  WEBHOOK_POLL_INTERVAL_MS: milliseconds().default(1000),
  /** Events older than this are pruned by the delivery workers once no active endpoint still has to get them. */
  EVENT_RETENTION_DAYS: z.coerce.number().int().min(1).max(MAX_RETENTION_DAYS).default(30),
  /**
   * Who may say which address a request came from (X-Forwarded-For): the load balancers in front, as addresses
   * or CIDR ranges (comma-separated), or a count of proxy hops. Unset: nobody, the socket's address counts.
   * Behind a balancer that must be set, or every sign-in counts against the balancer's one address and a
   * guesser blocks a username for everyone. `true` (trust anyone) is refused: any client could then pick its
   * address and step round the sign-in throttle.
   */
  TRUST_PROXY: z
    .string()
    .transform((v, ctx) => {
      if (/^\d+$/.test(v)) return Number(v);
      const entries = v.split(',').map((e) => e.trim());
      const bad = entries.find((e) => {
        const [address, bits, ...rest] = e.split('/');
        const family = isIP(address ?? '');
        const maxBits = family === 6 ? 128 : 32;
        return (
          family === 0 ||
          rest.length > 0 ||
          (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= maxBits))
        );
      });
      if (bad === undefined) return entries;
      ctx.addIssue({
        code: 'custom',
        message: `must be proxy addresses or CIDR ranges, comma-separated, or a hop count (not ${JSON.stringify(bad)})`,
      });
      return z.NEVER;
    })
    .optional(),
  WEB_DIST: z.string().optional(),
  /** When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`. */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export type Config = z.infer<typeof envSchema>;

export { ConfigError };

type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  return parseEnv(envSchema, env);
}

/** What the database scripts (migrate, verify-ledger, rebuild-derived) read: a bad PORT is no concern of theirs. */
const databaseSchema = envSchema.pick({ DATABASE_URL: true, DATA_DIR: true });
export type DatabaseConfig = z.infer<typeof databaseSchema>;

export function loadDatabaseConfig(env: Env = process.env): DatabaseConfig {
  return parseEnv(databaseSchema, env);
}

/**
 * Empty strings mean "unset", so `FOO= npm start` behaves like not setting FOO. A value of only whitespace is
 * refused: coerced to a number it was 0 (PORT=" " took a random port, an interval of " " switched its sweeper
 * off), and as ADMIN_PASSWORD it was a password no sign-in accepts.
 */
function parseEnv<Shape extends z.ZodRawShape>(
  schema: z.ZodObject<Shape>,
  env: Env,
): z.infer<z.ZodObject<Shape>> {
  const cleaned: Record<string, string> = {};
  const lines: string[] = [];
  for (const name of Object.keys(schema.shape)) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    if (value.trim() === '') lines.push(`  ${name}: is only whitespace (leave it empty for the default)`);
    else cleaned[name] = value;
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) lines.push(...parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`));
  if (!parsed.success || lines.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
