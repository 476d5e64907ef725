import pino, { type Logger } from 'pino';

/** A logger that writes nothing. */
export const quietLogger: Logger = pino({ level: 'silent' });

/** A logger that throws what it is asked to log as an error, for a test that must see every failure. */
export const throwingLogger: Logger = pino({
  level: 'error',
  hooks: {
    logMethod(args) {
      const [first] = args as unknown[];
      const error = (first as { err?: unknown } | undefined)?.err;
      throw error instanceof Error ? error : new Error(String(args[1] ?? first));
    },
  },
});
