/**
 * The one error type for printer failures. `reason` is a closed union so every
 * caller (print queue, CLI, server route, desktop bridge) can switch on it
 * exhaustively.
 */
export type PrinterErrorReason =
  /** No answer: unreachable host, refused connection, unplugged or powered off. */
  | 'offline'
  | 'paper_out'
  | 'cover_open'
  /** Connected, but the printer did not finish answering in time. */
  | 'timeout'
  /** The connection or USB device went away in the middle of a job. */
  | 'disconnected'
  /** Another program (or the kernel's usblp driver) holds the USB device. */
  | 'busy'
  /** The operating system refused access to the USB device. */
  | 'permission_denied'
  /** No printer matches the connection string. */
  | 'not_found'
  /** A malformed connection string or an unsupported setting. */
  | 'invalid_config';

/** Reasons a print job may end `failed` with; transport detail goes in the job's message. */
export type JobFailureReason = 'offline' | 'paper_out' | 'cover_open' | 'timeout';

export class PrinterError extends Error {
  override readonly name = 'PrinterError';
  readonly reason: PrinterErrorReason;
  /**
   * True when some job bytes may have reached the printer before the failure,
   * so the receipt may have printed (fully or in part).
   */
  readonly mayHaveReachedPrinter: boolean;

  constructor(
    reason: PrinterErrorReason,
    message: string,
    options: { mayHaveReachedPrinter?: boolean; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
    this.mayHaveReachedPrinter = options.mayHaveReachedPrinter ?? false;
  }
}

export function isPrinterError(error: unknown): error is PrinterError {
  return error instanceof PrinterError;
}

/** Maps any printer failure to the reason a job reports; exhaustive by construction. */
export function jobFailureReason(reason: PrinterErrorReason): JobFailureReason {
  switch (reason) {
    case 'paper_out':
      return 'paper_out';
    case 'cover_open':
      return 'cover_open';
    case 'timeout':
      return 'timeout';
    case 'offline':
    case 'disconnected':
    case 'busy':
    case 'permission_denied':
    case 'not_found':
    case 'invalid_config':
      return 'offline';
  }
}
