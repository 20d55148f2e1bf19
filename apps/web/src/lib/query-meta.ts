import '@tanstack/react-query';

/**
 * What a query or mutation tells the global error handler (app/query-client.ts):
 * - `errorTitle`: the screen toast ('Failed to load users'), the server's message as its description;
 * - `errorContext`: a prefix for the mapped message ('Load accounts: Account not found');
 * - `silent`: the screen shows the error itself, no toast;
 * - `ignoreStatuses`: statuses the screen shows itself (403 → a permission state);
 * - `readOnly` (mutations): the call writes nothing (a backtest, a search, a file checked), always or for the
 *   variables given, so leaving while it runs loses nothing and is not asked about (components/forms/use-leave-guard.ts).
 */
export interface AppRequestMeta extends Record<string, unknown> {
  errorTitle?: string;
  errorContext?: string;
  silent?: boolean;
  ignoreStatuses?: number[];
  readOnly?: boolean | ((variables: unknown) => boolean);
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: AppRequestMeta;
    mutationMeta: AppRequestMeta;
  }
}
