export * from './period.ts';
export * from './status.ts';
export * from './dunning.ts';
