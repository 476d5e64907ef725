export * from './signature.ts';
export * from './delivery.ts';
