export * from './audit';
export * from './auth';
export * from './common';
export * from './errors';
