import { bearer, type TestContext } from '../../../test/helper';

/** A CSV body from a header and rows (lines joined with CRLF, as spreadsheets write them). */
export const csv = (...lines: string[]) => `${lines.join('\r\n')}\r\n`;

export function importer(ctx: TestContext) {
  return (
    kind: 'accounts' | 'accruals',
    body: string | Buffer,
    options: { query?: string; token?: string; headers?: Record<string, string> } = {},
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/imports/${kind}${options.query ? `?${options.query}` : ''}`,
      headers: {
        ...bearer(options.token ?? ctx.tokens.MANAGER),
        'content-type': 'text/csv',
        ...options.headers,
      },
      payload: body,
    });
}
