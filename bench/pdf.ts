/**
 * Invoice PDFs, all in one process and one run so the ratios hold on a noisy host:
 *
 * 1. Layout in the event loop: the largest invoice the API accepts (100 lines, each one unbroken
 *    500-character word of the widest letter, a 2,000-character memo) against the same amount of
 *    text in short words (the baseline: what the text costs when wrapping breaks at spaces).
 * 2. The worker pool: BENCH_RENDERS (default 24) of the largest, all at once, through 1 and 2
 *    worker threads (renders/s), and the event loop's busy time per render through the pool
 *    against laying the same documents out in the loop.
 *
 *   npx tsx bench/pdf.ts
 */
import { performance } from 'node:perf_hooks';
import { documentPdf, type DocumentView } from '../apps/server/src/invoices/documents.ts';
import { PdfRenderer } from '../apps/server/src/invoices/renderer.ts';
import { largestInvoiceView, spacedInvoiceView } from '../test/invoices/largest.ts';
import { machine } from './support/harness.ts';

const renders = Number(process.env.BENCH_RENDERS ?? 24);
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function layoutMs(view: DocumentView, times = 9): number {
  documentPdf('invoice', view, 'en');
  return median(
    Array.from({ length: times }, () => {
      const started = performance.now();
      documentPdf('invoice', view, 'en');
      return performance.now() - started;
    }),
  );
}

/** Wall time and the event loop's busy time of `work`. */
async function timed(work: () => unknown): Promise<{ ms: number; busyMs: number }> {
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  await work();
  return { ms: performance.now() - started, busyMs: performance.eventLoopUtilization(loop).active };
}

const largest = largestInvoiceView();
const spaced = spacedInvoiceView();
console.log(machine());
const pdf = documentPdf('invoice', largest, 'en');
console.log(`largest invoice: ${pdf.length} bytes`);

// Alternate the two, three rounds, and keep each one's median.
const spacedMs: number[] = [];
const largestMs: number[] = [];
for (let round = 0; round < 3; round++) {
  spacedMs.push(layoutMs(spaced));
  largestMs.push(layoutMs(largest));
}
const baseline = median(spacedMs);
const unbroken = median(largestMs);
console.log(`layout, words (baseline): ${baseline.toFixed(1)} ms`);
console.log(
  `layout, largest: ${unbroken.toFixed(1)} ms (${(unbroken / baseline).toFixed(2)} of the baseline)`,
);

const inLoop = await timed(() => {
  for (let i = 0; i < renders; i++) documentPdf('invoice', largest, i % 2 ? 'sw' : 'en');
});
console.log(
  `${renders} in the loop: ${inLoop.ms.toFixed(0)} ms, loop busy ${(inLoop.busyMs / renders).toFixed(1)} ms per render`,
);
for (const workers of [1, 2]) {
  const pool = new PdfRenderer({ workers, queueMax: renders, timeoutMs: 60_000 });
  // Start the threads before timing.
  await Promise.all(Array.from({ length: workers }, () => pool.render('invoice', largest, 'en')));
  const pooled = await timed(() =>
    Promise.all(
      Array.from({ length: renders }, (_, i) => pool.render('invoice', largest, i % 2 ? 'sw' : 'en')),
    ),
  );
  await pool.close();
  console.log(
    `${renders} through ${workers} worker(s): ${pooled.ms.toFixed(0)} ms, ${((renders * 1000) / pooled.ms).toFixed(0)} renders/s ` +
      `(${(inLoop.ms / pooled.ms).toFixed(2)} of the loop's rate), loop busy ${(pooled.busyMs / renders).toFixed(2)} ms per render ` +
      `(${(pooled.busyMs / inLoop.busyMs).toFixed(3)} of the loop's)`,
  );
}
