/** Tables added by the POS API issue (receipts, idempotency records, …). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the POS issue.
export interface PosTables {}
