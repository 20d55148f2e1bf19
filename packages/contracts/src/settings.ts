// Filled in by the issue that owns this domain.
export {};
