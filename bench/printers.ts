/**
 * Printers benchmark: rendering a 30-line receipt, and a print job from the
 * queue to the printer's acknowledgement over TCP. Each is measured next to a
 * baseline from the same run, so results compare across noisy machines.
 *
 *   npx tsx bench/printers.ts
 */
import { createServer, connect, type Server } from 'node:net';
import { cpus, loadavg, platform, release } from 'node:os';
import { performance } from 'node:perf_hooks';
import { makeLongReceipt } from '../packages/printers/test/fixtures.ts';
import {
  PrintQueue,
  openTransport,
  renderReceipt,
  startVirtualPrinter,
} from '../packages/printers/src/index.ts';

interface Stats {
  p50: number;
  p99: number;
  mean: number;
}

function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p99: at(0.99), mean: sorted.reduce((s, v) => s + v, 0) / sorted.length };
}

/** Wall time, and this process's CPU time (which leaves out time the OS gave to other processes). */
function measureSync(iterations: number, warmup: number, run: () => void): Stats & { cpu: Stats } {
  for (let i = 0; i < warmup; i++) run();
  const samples: number[] = [];
  const cpuSamples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
    const cpu = process.cpuUsage(cpuStart);
    cpuSamples.push((cpu.user + cpu.system) / 1000);
  }
  return { ...stats(samples), cpu: stats(cpuSamples) };
}

async function measureAsync(iterations: number, warmup: number, run: () => Promise<void>): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

/** A server that answers one byte once it has received `expected` bytes on a connection. */
async function ackServer(expected: number): Promise<{ server: Server; port: number }> {
  const server = createServer((socket) => {
    let received = 0;
    socket.on('data', (chunk) => {
      received += chunk.length;
      if (received >= expected) socket.end(Buffer.from([0]));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

function rawRoundTrip(port: number, payload: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.write(payload));
    socket.setNoDelay(true);
    socket.once('data', () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
}

const receipt = makeLongReceipt(30);

// Rendering, against building the same receipt as one plain string.
const render = measureSync(2_000, 300, () => void renderReceipt(receipt));
const stringBaseline = measureSync(2_000, 300, () => {
  let text = `${receipt.store.name}\n`;
  for (const line of receipt.lines)
    text += `${line.description}\n  ${line.quantityText} x ${line.unitPrice}  ${line.total}\n`;
  void Buffer.from(`${text}TOTAL ${receipt.total}\n`);
});

// A queued job to the virtual printer's acknowledgement, against a raw write + ack of the same bytes.
const bytes = renderReceipt(receipt);
const printer = await startVirtualPrinter();
const queue = new PrintQueue({ transport: openTransport(printer.connection), commandSet: 'epson' });
const print = await measureAsync(300, 30, async () => {
  await queue.settled(queue.enqueue(bytes).id);
});
await printer.close();
const { server, port } = await ackServer(bytes.length);
const tcpBaseline = await measureAsync(300, 30, () => rawRoundTrip(port, bytes));
server.close();

const ms = (value: number): string => value.toFixed(3);
const ratio = (a: number, b: number): string => (a / b).toFixed(1);
const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(
  `Machine: ${cpu} x${cpus().length}, ${platform()} ${release()}, Node ${process.version}; ${new Date().toISOString().slice(0, 10)}`,
);
console.log(
  `Load average: ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(`Receipt: 30 lines, ${bytes.length} bytes of ESC/POS\n`);
console.log('| Measure | p50 ms | p99 ms | goal p99 | baseline p50 / p99 ms | ratio p50 / p99 |');
console.log('|---|---|---|---|---|---|');
console.log(
  `| Render 30-line receipt | ${ms(render.p50)} | ${ms(render.p99)} | < 2 ms | string build ${ms(stringBaseline.p50)} / ${ms(stringBaseline.p99)} | ${ratio(render.p50, stringBaseline.p50)}x / ${ratio(render.p99, stringBaseline.p99)}x |`,
);
console.log(
  `| Queue job to printer ack (TCP) | ${ms(print.p50)} | ${ms(print.p99)} | < 50 ms | raw write+ack ${ms(tcpBaseline.p50)} / ${ms(tcpBaseline.p99)} | ${ratio(print.p50, tcpBaseline.p50)}x / ${ratio(print.p99, tcpBaseline.p99)}x |`,
);
console.log(
  `\nRender CPU time: p50 ${ms(render.cpu.p50)} ms, p99 ${ms(render.cpu.p99)} ms (string build p99 ${ms(stringBaseline.cpu.p99)} ms).`,
);
const ok = render.p99 < 2 && print.p99 < 50;
console.log(`Goals (wall-clock p99) ${ok ? 'met' : 'NOT met'}.`);
