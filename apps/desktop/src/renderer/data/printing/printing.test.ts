import { filter, firstValueFrom } from 'rxjs';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { PullDocument } from '@tz/core';
import { BridgeWatch } from '../../../shared/bridge-watch.ts';
import type { DetectedBridge } from '../../../shared/detect-bridge.ts';
import { openTillStore } from '../index.ts';
import {
  TEST_TIMING,
  FakeBridge,
  FakeTransport,
  STORE,
  makeEmployee,
  makePrinter,
  makeProduct,
  openTestTill,
  pulled,
  settle,
} from '../../../../test/till-data.ts';
import type { TestTill } from '../../../../test/till-data.ts';

const PRINTER = makePrinter();
const OTHER_TILLS_PRINTER = makePrinter({ id: 'prn_2', till: 'till_2' });

const job = (id: string, printer = 'prn_1'): PullDocument<'print_jobs'> => ({
  id,
  _deleted: false,
  printer,
  status: 'pending',
  receipt: null,
  text: `kitchen ticket ${id}`,
  failure_reason: null,
  created: 1_764_147_600,
});

let till: TestTill | null = null;
afterEach(async () => {
  await till?.store.close();
  till = null;
});

async function sellOne(t: TestTill, tender: 'cash' | 'card') {
  await settle(async () => expect(await t.store.findByBarcode('6201234500017')).not.toBeNull());
  await settle(async () => expect(await firstValueFrom(t.store.printJobs$)).toBeDefined());
  await t.store.signIn('1234');
  await t.store.openShift(0);
  await t.store.addBarcode('6201234500017');
  return t.store.completeSale(
    tender === 'cash'
      ? [{ method: 'cash', amount: 5000 }]
      : [{ method: 'card', amount: 3500, reference: 'A1' }],
  );
}

describe('receipt printing', () => {
  it('prints the receipt after a cash sale and opens the drawer; a card sale leaves it shut', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [await makeEmployee()],
      printers: [PRINTER],
    });
    await pulled(till, 'printers');
    const { sale } = await sellOne(till, 'cash');
    await firstValueFrom(till.store.lastPrint$.pipe(filter((s) => s.status === 'printed')));
    expect(till.bridge.printed).toEqual([
      {
        printer: { connection: PRINTER.connection, paperWidth: 80, commandSet: 'epson' },
        what: sale.receipt,
        openDrawer: true,
      },
    ]);
    await till.store.addBarcode('6201234500017');
    await till.store.completeSale([{ method: 'card', amount: 3500, reference: 'B2' }]);
    await settle(() => expect(till!.bridge.printed).toHaveLength(2));
    expect(till.bridge.printed[1]?.openDrawer).toBe(false);
  });

  it('completes the sale when the printer fails, shows the failure and reprints on request', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [await makeEmployee()],
      printers: [PRINTER],
    });
    till.bridge.outcome = {
      ok: false,
      reason: 'paper_out',
      message: 'Out of paper',
      mayHaveReachedPrinter: false,
    };
    await pulled(till, 'printers');
    const { sale } = await sellOne(till, 'cash');
    expect(sale.receiptNumber).toBe('T01-000001');
    const failed = await firstValueFrom(till.store.lastPrint$.pipe(filter((s) => s.status === 'failed')));
    expect(failed).toMatchObject({ receiptNumber: 'T01-000001', outcome: { reason: 'paper_out' } });
    till.bridge.outcome = { ok: true, paperNearEnd: false };
    await expect(till.store.reprintLast()).resolves.toEqual({ ok: true, paperNearEnd: false });
    // The reprint is marked as a copy in the receipt's language; the first print was not.
    expect(till.bridge.printed[0]?.what).not.toHaveProperty('copyMark');
    expect(till.bridge.printed.at(-1)).toEqual({
      printer: expect.anything(),
      what: { ...sale.receipt, copyMark: 'NAKALA' },
      openDrawer: false,
    });
  });

  it('completes the sale when the bridge itself throws', async () => {
    till = await openTestTill({
      products: [makeProduct()],
      employees: [await makeEmployee()],
      printers: [PRINTER],
    });
    till.bridge.printReceipt = () => Promise.reject(new Error('bridge gone'));
    await pulled(till, 'printers');
    await expect(sellOne(till, 'cash')).resolves.toMatchObject({ change: 1500 });
    const failed = await firstValueFrom(till.store.lastPrint$.pipe(filter((s) => s.status === 'failed')));
    expect(failed).toMatchObject({ outcome: { reason: 'offline', message: 'bridge gone' } });
  });
});

describe('a printer bridge missed at start', () => {
  it('is looked for again when a receipt prints, and the jobs left waiting print once it is found', async () => {
    const late = new FakeBridge();
    let running = false;
    const looks: number[] = [];
    const watch = new BridgeWatch(
      { kind: 'none', detail: 'No printer' },
      {
        // The bridge process is not up yet: only the look after it started finds it.
        look: (timeoutMs): Promise<DetectedBridge> => {
          looks.push(timeoutMs);
          return Promise.resolve(
            running
              ? { kind: 'http', bridge: late, detail: 'found' }
              : { kind: 'none', detail: 'No printer' },
          );
        },
        retry: true,
        firstDelayMs: 60_000,
      },
    );
    till = await openTestTill(
      {
        products: [makeProduct()],
        employees: [await makeEmployee()],
        printers: [PRINTER],
        print_jobs: [job('pj_5')],
      },
      { bridge: watch },
    );
    await pulled(till, 'print_jobs');
    const pj5 = async () => (await firstValueFrom(till!.store.printJobs$)).find((j) => j.id === 'pj_5');
    expect(await pj5()).toMatchObject({ status: 'pending', attempt: null }); // pending for want of a bridge
    expect(late.printed).toEqual([]);

    running = true;
    const { sale } = await sellOne(till, 'cash');
    await firstValueFrom(till.store.lastPrint$.pipe(filter((s) => s.status === 'printed')));
    expect(looks.length).toBeGreaterThanOrEqual(1);
    expect(watch.state.kind).toBe('http');
    await settle(() =>
      expect(late.printed.map((p) => p.what)).toEqual(
        expect.arrayContaining([sale.receipt, 'kitchen ticket pj_5']),
      ),
    );
    expect(late.printed).toHaveLength(2);
  });
});

describe('server print jobs', () => {
  it('prints each pending job of this till once and reports the result as a command', async () => {
    till = await openTestTill({
      printers: [PRINTER, OTHER_TILLS_PRINTER],
      print_jobs: [job('pj_1'), job('pj_2', 'prn_2')],
    });
    const { store, transport, bridge } = till;
    await settle(() =>
      expect(transport.pushes.flat().filter((c) => c.type === 'print_job.result')).toHaveLength(1),
    );
    expect(bridge.printed).toEqual([expect.objectContaining({ what: 'kitchen ticket pj_1' })]);
    expect(transport.pushes.flat().find((c) => c.type === 'print_job.result')?.payload).toEqual({
      print_job: 'pj_1',
      status: 'printed',
    });
    // The same job seen again (a re-pull before the server marks it printed) is not printed again.
    // Pending jobs are tried in id order, one at a time: once pj_3 prints, pj_1 has had its turn.
    transport.documents.print_jobs = [
      ...(transport.documents.print_jobs ?? []),
      { ...job('pj_1') },
      job('pj_3'),
    ];
    transport.hint({ collections: ['print_jobs'] });
    await settle(() => expect(bridge.printed).toHaveLength(2));
    expect(bridge.printed.map((p) => p.what)).toEqual(['kitchen ticket pj_1', 'kitchen ticket pj_3']);
    expect((await firstValueFrom(store.printJobs$)).find((j) => j.id === 'pj_1')?.attempt).toMatchObject({
      outcome: 'printed',
    });
  });

  it('prints an order’s stored receipt marked as a copy in the receipt’s language', async () => {
    const stored = { language: 'en', receiptNumber: 'T01-000009', lines: [], total: 3500 };
    till = await openTestTill({
      printers: [PRINTER],
      print_jobs: [{ ...job('pj_r'), receipt: stored, text: null }],
    });
    await settle(() => expect(till!.bridge.printed).toHaveLength(1));
    expect(till.bridge.printed[0]?.what).toEqual({ ...stored, copyMark: 'COPY' });
  });

  it('does not print a job again after the till reopens', async () => {
    const storage = getRxStorageMemory();
    const name = `reopen${Math.random().toString(36).slice(2, 8)}`;
    const transport = new FakeTransport();
    transport.documents = { stores: [STORE], printers: [PRINTER], print_jobs: [job('pj_9')] };
    const options = {
      serverUrl: 'http://127.0.0.1:0',
      storage,
      name,
      multiInstance: false,
      transport,
      online: () => true,
      timing: TEST_TIMING,
    };
    const first = new FakeBridge();
    const store = await openTillStore({ ...options, bridge: first });
    await store.pair('ABCD-1234');
    await settle(() => expect(first.printed).toHaveLength(1));
    await store.close();

    // A new job arrives while the till is closed: the reopened till prints it, and only it.
    // Pending jobs are tried in id order, one at a time: once pj_99 prints, pj_9 has had its turn.
    transport.documents.print_jobs = [job('pj_9'), job('pj_99')];
    const second = new FakeBridge();
    const reopened = await openTillStore({ ...options, bridge: second });
    expect((await firstValueFrom(reopened.pairing$)).status).toBe('paired');
    await settle(() => expect(second.printed).toHaveLength(1));
    expect(second.printed).toEqual([expect.objectContaining({ what: 'kitchen ticket pj_99' })]);
    await reopened.close();
  });
});
