/** Rollup tables of the analytics issue. */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the analytics issue.
export interface AnalyticsTables {}
