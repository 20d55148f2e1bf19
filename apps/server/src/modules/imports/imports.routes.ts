import { Readable } from 'node:stream';
import { importHeadersSchema, importQuery, importReport } from '@loyalty/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import { AppError } from '../../lib/app-error';
import type { Secrets } from '../../lib/secrets';
import { MANAGERS } from '../../plugins/auth';
import { unsupportedMediaTypeMessage } from '../../plugins/errors';
import { erasedClientSecret } from '../member-data/erased-client-secret';
import { importAccounts } from './accounts-import.service';
import { importAccruals } from './accruals-import.service';

const CSV_BODY =
  'Body `text/csv` (UTF-8, RFC 4180 quoting, header row first), read as a stream; above IMPORT_MAX_BYTES the ' +
  'answer is 413. A wrong header, bad quoting or another encoding is 400 INVALID_CSV naming the line; a row ' +
  "with another number of cells than the header is an error row (code INVALID_CSV). A cell that is a `'` " +
  "followed by =, +, -, @, a tab or a CR (or their full-width forms), or by more `'`s before one, is read " +
  "without one `'`, as the CSV exports write such text (`'-0042` is `-0042`, `''-0042` is `'-0042`), so an " +
  'exported file imports back unchanged. ';

/**
 * The request body as it arrives: only the text/csv parser of this scope hands over the stream; any
 * other content type (JSON included, which the app parses everywhere) is a 415 here, in the words of the
 * 415 of a type no parser takes (the route's `consumes`).
 */
function csvStream(request: FastifyRequest): Readable {
  if (request.body instanceof Readable) return request.body;
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', unsupportedMediaTypeMessage(request));
}

/** PROGRAMME-API.md §4: member import and bulk credits from CSV. */
export const importsRoutes: FastifyPluginAsyncZod<{ config: Config; secrets: Secrets }> = async (
  app,
  { config, secrets },
) => {
  const managers = app.requireRole(...MANAGERS);
  const maxBytes = config.IMPORT_MAX_BYTES;
  const erasedKeySecret = erasedClientSecret(secrets);

  // Scoped to this plugin: the body stays a stream for the service to parse; JSON routes are untouched.
  app.addContentTypeParser('text/csv', (request, payload, done) => {
    const declared = Number(request.headers['content-length']);
    if (declared > maxBytes) {
      done(new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`), undefined);
      return;
    }
    done(null, payload);
  });

  app.post(
    '/api/v1/imports/accounts',
    {
      preHandler: managers,
      schema: {
        tags: ['Imports'],
        summary:
          'Import members from CSV: clientId,cardNumber,points,expiresAt,reason (only clientId required)',
        description: `${CSV_BODY}A file with an invalid row writes nothing unless skipInvalid=true; the same row again is unchanged.`,
        consumes: ['text/csv'],
        querystring: importQuery,
        response: { 200: importReport },
      },
    },
    async (request) =>
      // Kept: a shutdown lets the import remove its spooled rows before the database closes.
      app.lifecycle.keep(
        importAccounts(app.db, request.user!, csvStream(request), {
          ...request.query,
          maxBytes,
          erasedKeySecret,
        }),
      ),
  );

  app.post(
    '/api/v1/imports/accruals',
    {
      preHandler: managers,
      schema: {
        tags: ['Imports'],
        summary:
          'Bulk credits from CSV: clientId (or cardNumber),points,reason; the file is one idempotent unit',
        description:
          `${CSV_BODY}Each row is an adjustment like a manual accrual. A dry run of a file whose rows an ` +
          'earlier import already credited (the same file saved again: another body, so another default key) ' +
          'names that import in `duplicateOf`.',
        consumes: ['text/csv'],
        headers: importHeadersSchema,
        querystring: importQuery,
        response: { 200: importReport },
      },
    },
    async (request, reply) => {
      const { report, replayed } = await app.lifecycle.keep(
        importAccruals(app.db, request.user!, csvStream(request), {
          ...request.query,
          maxBytes,
          idempotencyKey: request.headers['idempotency-key'],
          keySecret: erasedKeySecret,
        }),
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return report;
    },
  );
};
