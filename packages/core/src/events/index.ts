export * from './states.ts';
export * from './commands.ts';
export * from './ticket-code.ts';
export * from './promos.ts';
export * from './door.ts';
export * from './door-verdict.ts';
export * from './box-office.ts';
export * from './box-office-receipt.ts';
