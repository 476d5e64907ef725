export * from './errors.ts';
export * from './ids.ts';
export * from './money.ts';
export * from './phone.ts';
export * from './receipt.ts';
export * from './retail/index.ts';
