export * from './states.ts';
export * from './stay.ts';
export * from './levies.ts';
export * from './quote.ts';
export * from './commands.ts';
export * from './registration.ts';
export * from './folio.ts';
export * from './front-desk.ts';
