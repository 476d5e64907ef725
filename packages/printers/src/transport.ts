/** A byte pipe to one printer. TCP and USB implement it; jobs and status queries both go through it. */
export interface PrinterTransport {
  /** The connection string it was opened from, for messages. */
  readonly target: string;
  /** Sends bytes; resolves once they are handed to the printer's link. */
  send(data: Uint8Array, options?: { timeoutMs?: number }): Promise<void>;
  /**
   * Sends bytes and resolves with the first `replyBytes` bytes the printer
   * answers. Rejects with a PrinterError (`timeout`, `offline`, `disconnected`, ...).
   */
  exchange(data: Uint8Array, options: { replyBytes: number; timeoutMs?: number }): Promise<Buffer>;
  /** Releases the link (USB interface, sockets). Safe to call twice. */
  close(): Promise<void>;
}

export interface TransportTimeouts {
  /** Time allowed to open the link (TCP connect, USB open and claim). */
  connectMs: number;
  /** Time allowed to write a job and receive the answer that follows it. */
  writeMs: number;
}

export const DEFAULT_TIMEOUTS: TransportTimeouts = { connectMs: 3_000, writeMs: 15_000 };
