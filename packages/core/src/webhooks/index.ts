export * from './signature.ts';
export * from './addresses.ts';
export * from './delivery.ts';
