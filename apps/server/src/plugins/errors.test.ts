import { errorCatalogue, isErrorCode } from '@loyalty/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorHandler } from './errors';

// No database: the handler alone, given the errors Fastify and its plugins raise with only a status.
const app = Fastify({ logger: false });
app.setErrorHandler(errorHandler);
app.get('/fail/:status', async (request) => {
  const status = Number((request.params as { status: string }).status);
  throw Object.assign(new Error(`plugin said ${status}`), { statusCode: status });
});
await app.ready();

const fail = async (status: number) => {
  const res = await app.inject({ url: `/fail/${status}` });
  return {
    statusCode: res.statusCode,
    body: res.json() as { status: number; code: string; message: string },
  };
};

describe('an error that carries only a status gets the code of that status', () => {
  it('every 4xx a plugin may raise answers a code whose catalogue status is the response status', async () => {
    const expected: Record<number, string> = {
      400: 'BAD_REQUEST',
      401: 'UNAUTHORIZED',
      403: 'FORBIDDEN',
      404: 'NOT_FOUND',
      405: 'METHOD_NOT_ALLOWED',
      408: 'REQUEST_TIMEOUT',
      409: 'CONFLICT',
      412: 'PRECONDITION_FAILED',
      413: 'PAYLOAD_TOO_LARGE',
      414: 'URI_TOO_LONG',
      415: 'UNSUPPORTED_MEDIA_TYPE',
      416: 'RANGE_NOT_SATISFIABLE',
      429: 'TOO_MANY_REQUESTS',
      431: 'HEADERS_TOO_LARGE',
    };
    for (const [status, code] of Object.entries(expected)) {
      const { statusCode, body } = await fail(Number(status));
      expect({ statusCode, status: body.status, code: body.code }, status).toEqual({
        statusCode: Number(status),
        status: Number(status),
        code,
      });
    }
  });

  it('a 4xx the catalogue has no code for is a 400 BAD_REQUEST, never a status and code that disagree', async () => {
    for (const status of [402, 406, 410, 418, 451]) {
      const { statusCode, body } = await fail(status);
      expect({ statusCode, code: body.code }, String(status)).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
      });
      expect(body.message).toBe(`plugin said ${status}`);
    }
  });

  it('a 5xx stays an INTERNAL_ERROR 500 whose details stay in the log', async () => {
    for (const status of [500, 501, 502]) {
      const { statusCode, body } = await fail(status);
      expect({ statusCode, code: body.code, message: body.message }).toEqual({
        statusCode: 500,
        code: 'INTERNAL_ERROR',
        message: errorCatalogue.INTERNAL_ERROR.message,
      });
    }
  });

  it('keeps the catalogue messages of 413 and 415 and the plugin message of the rest', async () => {
    expect((await fail(413)).body.message).toBe(errorCatalogue.PAYLOAD_TOO_LARGE.message);
    expect((await fail(415)).body.message).toBe(errorCatalogue.UNSUPPORTED_MEDIA_TYPE.message);
    expect((await fail(403)).body.message).toBe('plugin said 403');
  });

  it('no status from 400 to 599 answers a code the catalogue gives another status', async () => {
    for (let status = 400; status < 600; status++) {
      const { statusCode, body } = await fail(status);
      expect(isErrorCode(body.code), String(status)).toBe(true);
      expect(errorCatalogue[body.code as keyof typeof errorCatalogue].status, String(status)).toBe(
        statusCode,
      );
    }
  });
});
