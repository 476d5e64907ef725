export * from './pricing.ts';
export * from './tender.ts';
export * from './stock.ts';
export * from './receipt-number.ts';
export * from './receipt-builder.ts';
export * from './order-status.ts';
export { formatEastAfricaTime, eastAfricaDate } from './time.ts';
export { formatBasisPoints } from './integer-math.ts';
