import { afterEach, describe, expect, it } from 'vitest';
import { newId } from '@tz/core/ids';
import type { decodeJob } from './decoder.ts';
import { makeReceipt } from '../test/fixtures.ts';
import { openTransport } from './open.ts';
import { PrintQueue, type PrintJob } from './queue.ts';
import { renderReceipt, renderText } from './render.ts';
import { closedPort } from '../test/network.ts';
import { startVirtualPrinter, type VirtualPrinter, type VirtualPrinterOptions } from './virtual-printer.ts';

const FAST = { statusTimeoutMs: 300, writeTimeoutMs: 1_000 };

describe('print queue against the virtual printer over TCP', () => {
  let printer: VirtualPrinter | undefined;
  afterEach(async () => {
    await printer?.close();
    printer = undefined;
  });

  async function setup(
    options: VirtualPrinterOptions = {},
    queueOptions: Partial<typeof FAST> = {},
  ): Promise<{ printer: VirtualPrinter; queue: PrintQueue }> {
    printer = await startVirtualPrinter(options);
    const queue = new PrintQueue({
      transport: openTransport(printer.connection),
      commandSet: options.commandSet ?? 'epson',
      ...FAST,
      ...queueOptions,
    });
    return { printer, queue };
  }

  function printedText(items: ReturnType<typeof decodeJob>): string {
    return items
      .flatMap((item) => (item.kind === 'line' ? [item.segments.map((s) => s.text).join('')] : []))
      .join('\n');
  }

  it('prints jobs in the order they were added, each exactly once', async () => {
    const { printer, queue } = await setup();
    const jobs = ['first', 'second', 'third'].map((text) => queue.enqueue(renderText(text), { label: text }));
    const settled = await Promise.all(jobs.map((job) => queue.settled(job.id)));
    expect(settled.map((job) => [job.state, job.attempts])).toEqual([
      ['printed', 1],
      ['printed', 1],
      ['printed', 1],
    ]);
    expect((await printer.waitForJobs(3)).map((job) => printedText(job.items))).toEqual([
      'first',
      'second',
      'third',
    ]);
  });

  it('delivers the rendered receipt byte for byte', async () => {
    const { printer, queue } = await setup();
    const bytes = renderReceipt(makeReceipt());
    await queue.settled(queue.enqueue(bytes).id);
    const [received] = await printer.waitForJobs(1);
    // The printer also got the end-of-job status query (GS r 1) after the receipt.
    expect(received!.bytes).toEqual(Buffer.concat([bytes, Buffer.from([0x1d, 0x72, 0x01])]));
    expect(received!.text).toContain('JUMLA TZS');
  });

  it('returns the existing job instead of printing a job id twice', async () => {
    const { printer, queue } = await setup();
    const id = newId('printJob');
    const first = queue.enqueue(renderText('once'), { id });
    await queue.settled(id);
    const again = queue.enqueue(renderText('once'), { id });
    await queue.idle();
    expect(again.id).toBe(first.id);
    expect(again.state).toBe('printed');
    await printer.waitForJobs(1);
    // Proving no second job comes needs a moment: a job counts once its connection has closed.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(printer.jobs).toHaveLength(1);
  });

  it('fails a job with paper_out before sending anything, and prints it on retry once paper is loaded', async () => {
    const { printer, queue } = await setup({ paperOut: true });
    const job = await queue.settled(queue.enqueue(renderText('receipt')).id);
    expect(job).toMatchObject({ state: 'failed', failure: { reason: 'paper_out', mayHavePrinted: false } });
    expect(printer.jobs).toHaveLength(0);

    printer.set({ paperOut: false });
    expect(queue.retry(job.id)).toMatchObject({ ok: true });
    expect(await queue.settled(job.id)).toMatchObject({ state: 'printed', attempts: 2 });
    expect(await printer.waitForJobs(1)).toHaveLength(1);
  });

  it('fails a job with cover_open when the cover is open', async () => {
    const { queue } = await setup({ coverOpen: true });
    const job = await queue.settled(queue.enqueue(renderText('receipt')).id);
    expect(job.failure).toMatchObject({ reason: 'cover_open', mayHavePrinted: false });
  });

  it('fails a job with offline when the printer never answers', async () => {
    const { printer, queue } = await setup({ offline: true });
    const job = await queue.settled(queue.enqueue(renderText('receipt')).id);
    expect(job.failure).toMatchObject({ reason: 'offline', mayHavePrinted: false });
    expect(printer.jobs).toHaveLength(0);
  });

  it('fails a job with offline when nothing listens at the address', async () => {
    const queue = new PrintQueue({
      transport: openTransport(`tcp://127.0.0.1:${await closedPort()}`),
      commandSet: 'epson',
      ...FAST,
    });
    const job = await queue.settled(queue.enqueue(renderText('receipt')).id);
    expect(job.failure).toMatchObject({ reason: 'offline', mayHavePrinted: false });
    expect(job.failure?.message).toMatch(/ECONNREFUSED/);
  });

  it('marks a job that timed out after sending as possibly printed and asks before printing it again', async () => {
    const { printer, queue } = await setup({ printDelayMs: 1_000 }, { writeTimeoutMs: 150 });
    const job = await queue.settled(queue.enqueue(renderText('receipt')).id);
    expect(job).toMatchObject({ state: 'failed', failure: { reason: 'timeout', mayHavePrinted: true } });

    expect(queue.retry(job.id)).toMatchObject({ ok: false, reason: 'confirmation_required' });
    expect(queue.get(job.id)?.state).toBe('failed');

    printer.set({ printDelayMs: 0 });
    expect(queue.retry(job.id, { confirmReprint: true })).toMatchObject({ ok: true });
    expect(await queue.settled(job.id)).toMatchObject({ state: 'printed', attempts: 2 });
  });

  it('reports paper running out mid-job as paper_out, possibly printed', async () => {
    const { queue } = await setup({ printDelayMs: 1_000, paperOutAfterBytes: 100 }, { writeTimeoutMs: 200 });
    const job = queue.enqueue(renderReceipt(makeReceipt()));
    expect(await queue.settled(job.id)).toMatchObject({
      state: 'failed',
      failure: { reason: 'paper_out', mayHavePrinted: true },
    });
  });

  it('marks a job whose connection dropped mid-job as possibly printed', async () => {
    const { printer, queue } = await setup({ dropAfterBytes: 200 });
    const job = await queue.settled(queue.enqueue(renderReceipt(makeReceipt())).id);
    expect(job).toMatchObject({ state: 'failed', failure: { reason: 'offline', mayHavePrinted: true } });
    expect(job.failure?.message).toMatch(/closed the connection|lost/);
    const [partial] = await printer.waitForJobs(1);
    expect(partial).toMatchObject({ complete: false });
    expect(partial!.bytes.length).toBe(200);
  });

  it('keeps printing later jobs after one fails', async () => {
    const { printer, queue } = await setup({ coverOpen: true });
    const failed = queue.enqueue(renderText('first'));
    await queue.settled(failed.id);
    printer.set({ coverOpen: false });
    const next = await queue.settled(queue.enqueue(renderText('second')).id);
    expect(next.state).toBe('printed');
    expect(queue.get(failed.id)?.state).toBe('failed');
  });

  it('reports a nearly finished roll on the printed job', async () => {
    const { queue } = await setup({ paperNearEnd: true });
    expect(await queue.settled(queue.enqueue(renderText('x')).id)).toMatchObject({
      state: 'printed',
      paperNearEnd: true,
    });
  });

  it('prints on a Star printer', async () => {
    const { printer, queue } = await setup({ commandSet: 'star' });
    const bytes = renderReceipt(makeReceipt(), { commandSet: 'star' });
    expect(await queue.settled(queue.enqueue(bytes).id)).toMatchObject({ state: 'printed' });
    const [received] = await printer.waitForJobs(1);
    expect(received!.items).toContainEqual(
      expect.objectContaining({ kind: 'qr', data: 'https://verify.tra.go.tz/R-000123' }),
    );
  });

  it('picks up a job added while the previous one is finishing', async () => {
    const { queue } = await setup();
    // Add each next job a different number of promise hops after the previous one settled,
    // so one of them lands while the queue is winding down.
    for (let hops = 0; hops < 8; hops++) {
      await queue.settled(queue.enqueue(renderText(`hop ${hops}`)).id);
      for (let i = 0; i < hops; i++) await Promise.resolve();
      const next = queue.enqueue(renderText(`after ${hops}`));
      expect((await queue.settled(next.id)).state).toBe('printed');
    }
  }, 10_000);

  it('reports every state change of a job in order', async () => {
    const { queue } = await setup();
    const states: string[] = [];
    queue.onChange((job: PrintJob) => states.push(job.state));
    await queue.settled(queue.enqueue(renderText('x')).id);
    expect(states).toEqual(['queued', 'printing', 'printed']);
  });

  it('refuses to retry a printed job', async () => {
    const { queue } = await setup();
    const job = await queue.settled(queue.enqueue(renderText('x')).id);
    expect(queue.retry(job.id)).toMatchObject({ ok: false, reason: 'not_failed' });
  });
});
