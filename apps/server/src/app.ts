import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/connection';
import { useGroupCommit } from './db/group-commit';
import { loggedRequest } from './lib/logged-request';
import type { Secrets } from './lib/secrets';
import { createTokenService } from './lib/tokens';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { cardsRoutes } from './modules/cards/cards.routes';
import { clientsRoutes } from './modules/clients/clients.routes';
import { eventsRoutes } from './modules/events/events.routes';
import { endpointBacklogs } from './modules/events/streams.repository';
import { webhooksRoutes } from './modules/events/webhooks.routes';
import { healthRoutes } from './modules/health/health.routes';
import { registerLifecycle } from './modules/health/lifecycle';
import { importsRoutes } from './modules/imports/imports.routes';
import { setBatchKinds } from './modules/ledger/set-batch-kinds';
import { lotsRoutes } from './modules/lots/lots.routes';
import { memberDataRoutes } from './modules/member-data/member-data.routes';
import { operationsRoutes } from './modules/operations/operations.routes';
import { posRoutes } from './modules/pos/pos.routes';
import { posKeysRoutes } from './modules/pos-keys/pos-keys.routes';
import { receiptsRoutes } from './modules/receipts/receipts.routes';
import { reportsRoutes } from './modules/reports/points-flow.routes';
import { rulesetsRoutes } from './modules/rulesets/rulesets.routes';
import { settingsRoutes } from './modules/settings/settings.routes';
import { usersRoutes } from './modules/users/users.routes';
import { authPlugin } from './plugins/auth';
import { registerConsole } from './plugins/console';
import { inlineScriptHashes } from './plugins/console-csp';
import { databasePlugin } from './plugins/database';
import { clientErrorHandler, frameworkErrors, registerErrorHandling } from './plugins/errors';
import { registerStrictJsonParser, validatorCompiler } from './plugins/input';
import { ledgerSweepersPlugin } from './plugins/ledger-sweepers';
import { metricsPlugin } from './plugins/metrics';
import { registerSwagger } from './plugins/swagger';
import { webhookDeliveriesPlugin } from './plugins/webhook-deliveries';

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  secrets: Secrets;
  /** Where log lines go (default: stdout); tests read them here. */
  logStream?: { write(line: string): void };
}

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** The one app factory: `server.ts` listens with it, tests `inject` into it. */
export async function buildApp({ config, database, secrets, logStream }: AppDeps) {
  const proxies = config.TRUST_PROXY;
  const app = Fastify({
    // A request's log line shows its URL without the member identifiers it may carry (`loggedRequest`).
    logger: {
      level: config.LOG_LEVEL,
      serializers: { req: loggedRequest },
      ...(logStream ? { stream: logStream } : {}),
    },
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    // A path parameter as long as the contracts allow, percent-encoded: a 128-character POS operationId or a
    // 100-character client ID of 4-byte characters is up to 1,200 characters (Fastify's default, 100, answered
    // 414 for the receipt of an accrual it had booked).
    routerOptions: { maxParamLength: 2048 },
    // request.ip (the sign-in throttle's address) from X-Forwarded-For only when it comes through these.
    // A hop count as the function Fastify's types take (its runtime would take the number too).
    trustProxy:
      typeof proxies === 'number' ? (_address: string, hop: number) => hop < proxies : (proxies ?? false),
    // Errors before routing answer with the `{status, message, code}` envelope like every other.
    frameworkErrors,
    clientErrorHandler,
    // A request arriving while the app closes is answered by `registerLifecycle` in the error envelope.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  // The APIs speak JSON only: a text body is a 415, not a string that fails validation later.
  app.removeContentTypeParser('text/plain');
  registerStrictJsonParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerLifecycle(app);

  const webDist = config.WEB_DIST ?? defaultWebDist;
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        // Same-origin scripts, and the console's inline theme script by its hash (no other inline script).
        'script-src': ["'self'", ...inlineScriptHashes(webDist)],
        // Swagger UI and Recharts set inline styles.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'frame-ancestors': ["'self'"],
        // Helmet's default would make browsers rewrite every request to https, breaking plain-HTTP
        // deployments (TLS is usually terminated in front of the server, which decides that).
        'upgrade-insecure-requests': null,
      },
    },
  });
  await app.register(databasePlugin, { db: database.db, kind: database.kind });
  // The pool's connection-lost warnings as JSON log lines, not plain text on stderr.
  database.setWarningLog?.((details, message) => app.log.warn(details, message));
  await app.register(metricsPlugin, {
    token: config.METRICS_TOKEN,
    poolStats: database.poolStats,
    webhookBacklogs: (cap) => endpointBacklogs(database.db, cap),
  });
  if (config.POS_GROUP_COMMIT_LANES > 0) {
    useGroupCommit(database.db, {
      lanes: config.POS_GROUP_COMMIT_LANES,
      maxBatch: config.POS_GROUP_COMMIT_MAX,
      onBatch: (size, outcome) => app.metrics.groupCommitBatch('card', size, outcome),
    });
  }
  if (config.POS_SET_BATCH_LANES > 0) {
    for (const kind of setBatchKinds) {
      kind.use(database.db, {
        lanes: config.POS_SET_BATCH_LANES,
        maxBatch: config.POS_SET_BATCH_MAX,
        onBatch: (size, outcome) => app.metrics.groupCommitBatch(kind.name, size, outcome),
      });
    }
  }
  await app.register(ledgerSweepersPlugin, {
    holdIntervalMs: config.HOLD_SWEEP_INTERVAL_MS,
    expiryIntervalMs: config.POINTS_EXPIRY_INTERVAL_MS,
  });
  await app.register(webhookDeliveriesPlugin, { config, secrets });
  await app.register(authPlugin, {
    tokens: createTokenService(secrets.jwtSecret, config.SESSION_TTL_SECONDS),
  });
  await registerSwagger(app);

  await app.register(healthRoutes);
  await app.register(authRoutes, { config });
  // The POS API authenticates tills by X-API-Key, so it lives outside the session scope.
  await app.register(posRoutes, { config, secrets });

  // Everything in this scope needs a valid session token.
  await app.register(async (secured) => {
    secured.addHook('onRequest', secured.authenticate);
    await secured.register(usersRoutes);
    await secured.register(auditRoutes);
    await secured.register(settingsRoutes);
    await secured.register(rulesetsRoutes);
    await secured.register(accountsRoutes, { secrets });
    await secured.register(lotsRoutes);
    await secured.register(cardsRoutes);
    await secured.register(operationsRoutes);
    await secured.register(memberDataRoutes, { secrets });
    await secured.register(clientsRoutes);
    await secured.register(posKeysRoutes, { config, secrets });
    await secured.register(receiptsRoutes);
    await secured.register(analyticsRoutes);
    await secured.register(reportsRoutes);
    await secured.register(importsRoutes, { config, secrets });
    await secured.register(eventsRoutes);
    await secured.register(webhooksRoutes, { config, secrets });
  });

  await registerConsole(app, webDist);
  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
