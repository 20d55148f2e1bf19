import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorCatalogue } from '@loyalty/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { finishDocument } from '../openapi/finish-document';
import { rolesOf } from './auth';
import { declareErrorResponses } from './error-responses';

const swaggerPage = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Loyalty Admin API</title>
  <link rel="stylesheet" href="/docs/static/swagger-ui.css" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/static/swagger-ui-bundle.js"></script>
  <script src="/swagger-init.js"></script>
</body>
</html>`;

// A separate file, not an inline script, so the Content-Security-Policy can stay strict.
const swaggerInit = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
});`;

/**
 * Routes that read their body as a stream (the CSV imports) have no body schema to validate; the document
 * still says what they take: the route's `consumes` type with a text body. A route with a role check names
 * its roles (`x-roles`, and in its description), from the check itself.
 */
const perRoute: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const schema = out.schema as {
    consumes?: string[];
    body?: unknown;
    description?: string;
    'x-roles'?: unknown;
  };
  if (schema.consumes?.length && !schema.body) schema.body = { type: 'string', description: 'the file' };
  const roles = rolesOf(input.route);
  if (roles) {
    schema['x-roles'] = [...roles];
    const sentence = `Roles: ${roles.join(', ')}.`;
    schema.description = schema.description ? `${schema.description} ${sentence}` : sentence;
  }
  return out;
};

/**
 * The error catalogue once, in the document's description: each error response's `code` is one of these, and
 * clients switch on it (listed per response it would repeat in every one of the document's error schemas).
 */
function catalogueText(): string {
  const codes = Object.entries(errorCatalogue).map(([code, { status }]) => `${code} (${status})`);
  return `The codes, with the status each is answered with: ${codes.join(', ')}.`;
}

/** OpenAPI 3 generated from the zod route schemas: `/openapi.json`, and Swagger UI at `/swagger.html`. */
export async function registerSwagger(app: FastifyInstance) {
  // Before any API route is added, so each one's error statuses are declared (and serialized) too.
  app.addHook('onRoute', declareErrorResponses);
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Loyalty Admin API',
        version: '1.0.0',
        description:
          'Admin API (Bearer token from /auth/api/v1/login) and POS API (X-API-Key of an active POS key). ' +
          `Every error is \`{status, message, code}\`. ${catalogueText()}`,
      },
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearerAuth: [] }],
    },
    transform: perRoute,
    transformObject: (document) => finishDocument('openapiObject' in document ? document.openapiObject : {}),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/swagger.html', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(swaggerPage),
  );
  app.get('/swagger-init.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('application/javascript; charset=utf-8').send(swaggerInit),
  );
}
