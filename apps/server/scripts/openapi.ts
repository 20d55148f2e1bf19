import { writeFileSync } from 'node:fs';
import { openApiPath, renderOpenApiDocument } from '../src/openapi/document';

/** `npm run openapi`: rewrites the checked-in openapi.json from the routes (a test fails when it is stale). */
writeFileSync(openApiPath, await renderOpenApiDocument());
console.log(`wrote ${openApiPath}`);
