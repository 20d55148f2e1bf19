import { fileURLToPath } from 'node:url';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/connection';
import { migrateToLatest } from '../db/migrate';

/** The checked-in copy of the API description, at the repository root, so API changes show in review. */
export const openApiPath = fileURLToPath(new URL('../../../../openapi.json', import.meta.url));

/**
 * The OpenAPI document the server serves at /openapi.json, as the text `npm run openapi` writes. Built
 * from the real app (routes and their zod schemas) on a throw-away in-memory database.
 */
export async function renderOpenApiDocument(): Promise<string> {
  const database = await openDatabase({});
  try {
    await migrateToLatest(database.db);
    const app = await buildApp({
      config: loadConfig({ LOG_LEVEL: 'silent', WEB_DIST: '/nonexistent' }),
      database,
      // Placeholders: the document does not depend on secrets, and nothing is signed or encrypted here.
      secrets: { jwtSecret: 'openapi-document-placeholder-secret-000000', posKeySecret: '0'.repeat(64) },
    });
    try {
      await app.ready();
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}
