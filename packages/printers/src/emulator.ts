import type { CommandSet } from './config.ts';
import { EscPosDecoder, formatItems, type DecodedItem, type StatusQuery } from './decoder.ts';

/** Conditions a simulated printer can be put in. */
export interface PrinterConditions {
  paperOut: boolean;
  paperNearEnd: boolean;
  coverOpen: boolean;
}

export interface EmulatedJob {
  /** 1-based order of arrival. */
  number: number;
  bytes: Buffer;
  items: DecodedItem[];
  /** The job as readable text (see formatItems). */
  text: string;
  /** False when the printer could not print (paper out, cover open). */
  printed: boolean;
  /** False when the link dropped before the job ended. */
  complete: boolean;
}

/** An answer to a status query; `inSequence` ones come after printing what preceded them. */
export interface EmulatorAnswer {
  bytes: Buffer;
  inSequence: boolean;
}

/** One job being received: bytes decoded as they arrive. */
export interface JobReception {
  readonly decoder: EscPosDecoder;
  readonly chunks: Buffer[];
  /** Whether the printer was stopped at any point while receiving. */
  stopped: boolean;
}

/**
 * The printer side of the wire, shared by the virtual network printer and the
 * fake USB device in tests: decodes jobs and answers status queries the way an
 * Epson printer does.
 */
export class PrinterEmulator {
  readonly jobs: EmulatedJob[] = [];
  conditions: PrinterConditions;

  constructor(
    readonly commandSet: CommandSet,
    readonly columns: number,
    conditions: Partial<PrinterConditions> = {},
  ) {
    this.conditions = { paperOut: false, paperNearEnd: false, coverOpen: false, ...conditions };
  }

  get stopped(): boolean {
    return this.conditions.paperOut || this.conditions.coverOpen;
  }

  begin(): JobReception {
    return { decoder: new EscPosDecoder(this.commandSet), chunks: [], stopped: this.stopped };
  }

  /**
   * Takes bytes of a job; returns the answers due. A stopped printer still
   * answers real-time queries but never reaches in-sequence ones.
   */
  receive(reception: JobReception, chunk: Uint8Array): EmulatorAnswer[] {
    reception.chunks.push(Buffer.from(chunk));
    reception.stopped ||= this.stopped;
    const answers: EmulatorAnswer[] = [];
    for (const query of reception.decoder.push(chunk)) {
      const bytes = this.answer(query);
      if (bytes) answers.push({ bytes, inSequence: query.kind === 'in_sequence' });
    }
    return answers;
  }

  /** Ends a job; status-only exchanges leave no job behind. */
  end(reception: JobReception, complete: boolean): EmulatedJob | undefined {
    const hadOutput = reception.decoder.hasOutput;
    const items = reception.decoder.finish();
    if (!hadOutput) return undefined;
    const job: EmulatedJob = {
      number: this.jobs.length + 1,
      bytes: Buffer.concat(reception.chunks),
      items,
      text: formatItems(items, this.columns),
      printed: !reception.stopped,
      complete,
    };
    this.jobs.push(job);
    return job;
  }

  answer(query: StatusQuery): Buffer | undefined {
    const { paperOut, paperNearEnd, coverOpen } = this.conditions;
    if (query.kind === 'in_sequence') {
      if (this.stopped) return undefined;
      // GS r 1: paper sensor; GS r 2: drawer (closed).
      return Buffer.from([query.n === 1 || query.n === 49 ? (paperNearEnd ? 0x03 : 0) : 0]);
    }
    const fixed = 0x12;
    switch (query.n) {
      case 1:
        return Buffer.from([fixed | (this.stopped ? 0x08 : 0)]);
      case 2:
        return Buffer.from([fixed | (coverOpen ? 0x04 : 0) | (paperOut ? 0x20 : 0)]);
      case 3:
        return Buffer.from([fixed]);
      case 4:
        return Buffer.from([fixed | (paperNearEnd || paperOut ? 0x0c : 0) | (paperOut ? 0x60 : 0)]);
      default:
        return undefined;
    }
  }
}
