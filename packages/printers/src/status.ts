import type { CommandSet } from './config.ts';
import { PrinterError, type JobFailureReason, type PrinterErrorReason } from './errors.ts';
import type { PrinterTransport } from './transport.ts';

/** What the printer said about itself, or that it said nothing. */
export interface PrinterStatus {
  /** Answered and ready to print. */
  online: boolean;
  /** Whether the printer answered the status queries at all. */
  answered: boolean;
  coverOpen: boolean;
  paperOut: boolean;
  paperNearEnd: boolean;
  /** A printer error (cutter jam, overheating...) other than cover or paper. */
  error: boolean;
  /** Why the printer could not be asked, when it did not answer. */
  problem?: PrinterErrorReason;
  /** One sentence for people. */
  detail: string;
}

const DLE_EOT = (n: number): number[] => [0x10, 0x04, n];

/**
 * Real-time status queries, answered on arrival even while the printer is
 * stopped: 1 printer, 2 offline cause, 4 paper roll sensor.
 */
export const STATUS_QUERY = Buffer.from([...DLE_EOT(1), ...DLE_EOT(2), ...DLE_EOT(4)]);

/**
 * Sent after a job: on Epson `GS r 1` is answered only once everything before
 * it has been printed, so its answer means the job is on paper. Star Line
 * Mode has no such command; `DLE EOT 4` there confirms the printer received
 * the job and still has paper.
 */
export function endOfJobQuery(commandSet: CommandSet): Buffer {
  return commandSet === 'epson' ? Buffer.from([0x1d, 0x72, 0x01]) : Buffer.from(DLE_EOT(4));
}

/** Whether the end-of-job answer reports the paper roll near its end. */
export function endOfJobNearEnd(commandSet: CommandSet, answer: number): boolean {
  return commandSet === 'epson' ? (answer & 0x03) !== 0 : (answer & 0x0c) !== 0;
}

/** Every `DLE EOT` answer has bits 1 and 4 set and bits 0 and 7 clear. */
function isStatusByte(byte: number | undefined): byte is number {
  return byte !== undefined && (byte & 0x93) === 0x12;
}

export function decodeStatus(answer: Uint8Array): PrinterStatus {
  const [printer, offlineCause, paper] = [answer[0], answer[1], answer[2]];
  if (!isStatusByte(printer) || !isStatusByte(offlineCause) || !isStatusByte(paper)) {
    // What answered is not a printer; its bytes stay out of the message, which travels to the server.
    return unanswered(
      'offline',
      'Something answered at this address, but not as a receipt printer does: check the printer address.',
      true,
    );
  }
  const coverOpen = (offlineCause & 0x04) !== 0;
  const paperOut = (paper & 0x60) !== 0 || (offlineCause & 0x20) !== 0;
  const paperNearEnd = (paper & 0x0c) !== 0;
  const error = (offlineCause & 0x40) !== 0 && !paperOut && !coverOpen;
  const online = (printer & 0x08) === 0 && !coverOpen && !paperOut && !error;
  const detail = paperOut
    ? 'Out of paper.'
    : coverOpen
      ? 'The cover is open.'
      : error
        ? 'The printer reports an error (cutter, temperature or mechanism).'
        : !online
          ? 'The printer is offline.'
          : paperNearEnd
            ? 'Ready; the paper roll is nearly finished.'
            : 'Ready.';
  return { online, answered: true, coverOpen, paperOut, paperNearEnd, error, detail };
}

function unanswered(problem: PrinterErrorReason, detail: string, answered = false): PrinterStatus {
  return {
    online: false,
    answered,
    coverOpen: false,
    paperOut: false,
    paperNearEnd: false,
    error: false,
    problem,
    detail,
  };
}

/** Asks the printer for its status; a printer that does not answer is reported offline. */
export async function queryStatus(transport: PrinterTransport, timeoutMs: number): Promise<PrinterStatus> {
  try {
    const answer = await transport.exchange(STATUS_QUERY, { replyBytes: 3, timeoutMs });
    return decodeStatus(answer);
  } catch (error) {
    if (error instanceof PrinterError) {
      return unanswered(
        error.reason,
        error.reason === 'timeout' ? `No answer from ${transport.target}: ${error.message}` : error.message,
      );
    }
    throw error;
  }
}

/** The reason a job cannot print now, or undefined when the printer is ready. */
export function statusProblem(status: PrinterStatus): JobFailureReason | undefined {
  if (status.paperOut) return 'paper_out';
  if (status.coverOpen) return 'cover_open';
  if (!status.online) return 'offline';
  return undefined;
}
