import type { CommandSet } from './config.ts';
import { PrinterError, type PrinterErrorReason } from './errors.ts';
import { endOfJobNearEnd, endOfJobQuery, queryStatus, statusProblem } from './status.ts';
import type { PrinterTransport } from './transport.ts';

export interface PrintOptions {
  commandSet: CommandSet;
  /** Time for the status check before printing. */
  statusTimeoutMs?: number;
  /** Time for the job to be written and acknowledged. */
  writeTimeoutMs?: number;
}

export interface PrintResult {
  /** The printer said the roll is nearly finished when it acknowledged the job. */
  paperNearEnd: boolean;
}

export const DEFAULT_STATUS_TIMEOUT_MS = 2_000;
export const DEFAULT_WRITE_TIMEOUT_MS = 15_000;

/**
 * Prints one rendered job and resolves only once the printer acknowledged it.
 * Checks the status first, so a printer out of paper or with its cover open
 * fails the job before any byte is sent; failures after sending carry
 * `mayHaveReachedPrinter` so nobody reprints blindly.
 */
export async function printJob(
  transport: PrinterTransport,
  job: Uint8Array,
  options: PrintOptions,
): Promise<PrintResult> {
  const statusTimeoutMs = options.statusTimeoutMs ?? DEFAULT_STATUS_TIMEOUT_MS;
  const before = await queryStatus(transport, statusTimeoutMs);
  const problem = statusProblem(before);
  if (problem) {
    // Silence before anything was sent means offline; keep sharper causes (busy, permission_denied).
    const reason: PrinterErrorReason =
      problem === 'offline' && before.problem && before.problem !== 'timeout' ? before.problem : problem;
    throw new PrinterError(reason, before.detail);
  }

  // The job and its end-of-job query in one write; the one-byte answer comes once the job is through.
  let answer: Buffer;
  try {
    answer = await transport.exchange(Buffer.concat([job, endOfJobQuery(options.commandSet)]), {
      replyBytes: 1,
      timeoutMs: options.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS,
    });
  } catch (error) {
    throw await explainFailure(transport, error, statusTimeoutMs);
  }
  const byte = answer[0];
  if (options.commandSet === 'star' && byte !== undefined && (byte & 0x60) !== 0) {
    // Star's end-of-job answer is real-time: paper ran out while the job waits in the printer's buffer.
    throw new PrinterError('paper_out', 'Out of paper: the job reached the printer but has not printed.', {
      mayHaveReachedPrinter: true,
    });
  }
  return { paperNearEnd: byte !== undefined && endOfJobNearEnd(options.commandSet, byte) };
}

/** After a failed send, asks the printer why: paper running out mid-job is a better reason than a timeout. */
async function explainFailure(
  transport: PrinterTransport,
  error: unknown,
  statusTimeoutMs: number,
): Promise<PrinterError> {
  const failure =
    error instanceof PrinterError
      ? error
      : new PrinterError('disconnected', `Printing failed: ${String(error)}`, {
          mayHaveReachedPrinter: true,
          cause: error,
        });
  const after = await queryStatus(transport, statusTimeoutMs);
  const problem = statusProblem(after);
  if (problem === 'paper_out' || problem === 'cover_open') {
    return new PrinterError(problem, `${after.detail} ${failure.message}`, {
      mayHaveReachedPrinter: failure.mayHaveReachedPrinter,
      cause: failure,
    });
  }
  return failure;
}
