export * from './status.ts';
export * from './totals.ts';
