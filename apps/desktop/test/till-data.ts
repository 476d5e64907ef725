/**
 * Builders for the data layer's tests: a store on memory storage with a clock
 * the test moves, a transport that records every call and answers what the
 * test says, a bridge that records what it printed, and catalogue fixtures.
 */
import { TRPCClientError } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { expect, vi } from 'vitest';
import { hashPin, tillPinVerifier } from '@tz/core';
import type {
  ChangeHint,
  Command,
  CommandResult,
  DoorCheckinInput,
  PairResult,
  PullCollection,
  PullDocument,
  PullInput,
  PullResult,
  ReportResult,
  TillPayment,
} from '@tz/core';
import type { RxCollection } from 'rxdb';
import type { PrintOutcome, PrinterTarget, TillBridge } from '../src/shared/bridge.ts';
import type { TillStore } from '../src/renderer/data/api.ts';
import { PAGE_ITEMS, pageKey } from '../src/renderer/data/catalogue/catalogue-pages.ts';
import { openTillStore } from '../src/renderer/data/index.ts';
import type { OpenOptions } from '../src/renderer/data/index.ts';
import type { CommandDoc } from '../src/renderer/data/store/schema.ts';
import type {
  ChangeHandlers,
  DoorCheckinAnswer,
  SyncTransport,
} from '../src/renderer/data/sync/transport.ts';

export const PAIRING: PairResult = {
  credential: 'tcred_test',
  till: { id: 'till_1', name: 'Counter 1', store: 'store_1', receipt_prefix: 'T01' },
  merchant: { id: 'acct_1', business_name: 'Duka la Mama' },
  livemode: false,
};

export const STORE: PullDocument<'stores'> = {
  id: 'store_1',
  _deleted: false,
  name: 'Duka la Mama',
  address_lines: ['Kariakoo, Dar es Salaam'],
  phone: null,
  tin: '123-456-789',
  vrn: null,
  vat_region: 'mainland',
  currency: 'TZS',
  receipt_header: [],
  receipt_footer: ['Asante'],
  receipt_language: 'sw',
};

export function makeProduct(overrides: Partial<PullDocument<'products'>> = {}): PullDocument<'products'> {
  return {
    id: 'prod_1',
    _deleted: false,
    name: 'Sukari 1kg',
    sku: 'SUK-1',
    barcodes: ['6201234500017'],
    price: 3500,
    currency: 'TZS',
    tax_rate: 'standard',
    category: null,
    unit: 'piece',
    track_stock: false,
    active: true,
    ...overrides,
  };
}

/** A receipt printer of the test till (`till_1`), as the server sends it. */
export function makePrinter(overrides: Partial<PullDocument<'printers'>> = {}): PullDocument<'printers'> {
  return {
    id: 'prn_1',
    _deleted: false,
    till: 'till_1',
    name: 'Front',
    connection: 'tcp://192.168.1.50:9100',
    paper_width: 80,
    command_set: 'epson',
    code_page: null,
    ...overrides,
  };
}

/** Page keys for `storeCatalogue`: after any a test's feed makes (its sequence counts from 1). */
let catalogueSeq = 1_000_000;

/**
 * Stores products or variants as the pull does, a page of up to 1,000 at a
 * time, each page after every page stored before it: the newest state of a
 * document is the one stored last (`{ ...doc, _deleted: true }` deletes it).
 */
export async function storeCatalogue(
  collection: RxCollection<Record<string, unknown>>,
  docs: Array<PullDocument<'products'> | PullDocument<'variants'>>,
): Promise<void> {
  for (let first = 0; first < docs.length; first += PAGE_ITEMS) {
    const items = docs.slice(first, first + PAGE_ITEMS);
    await collection.insert({ id: pageKey({ seq: ++catalogueSeq, id: items.at(-1)!.id }), items });
  }
}

/** The till's salt in tests; verifiers carry their iterations, and tests use few (real ones: core's pin.test.ts). */
export const TEST_TILL_SALT = 'dGlsbC1zYWx0LXRlc3Q=';

export async function makeEmployee(
  overrides: Partial<PullDocument<'employees'>> & { pinCode?: string } = {},
): Promise<PullDocument<'employees'>> {
  const { pinCode = '1234', ...rest } = overrides;
  return {
    id: 'emp_cashier',
    _deleted: false,
    name: 'Asha',
    role: 'cashier',
    pin: await tillPinVerifier(await hashPin(pinCode, TEST_TILL_SALT), TEST_TILL_SALT, 1_000),
    ...rest,
  };
}

/** A transport whose answers the test sets; every call is recorded. */
export class FakeTransport implements SyncTransport {
  pushes: Command[][] = [];
  pulls: PullInput[] = [];
  reports: Array<{ app_version: string; backlog: number }> = [];
  /** The server's documents per collection, served from a null checkpoint in one page. */
  documents: Partial<Record<PullCollection, unknown[]>> = {};
  /** Answers a push; by default every command is applied. */
  answer: (commands: Command[]) => CommandResult[] | Promise<CommandResult[]> = (commands) =>
    commands.map((command) => ({
      id: command.id,
      status: 'applied',
      result: { order: `ord_${command.id}` },
    }));
  payments = new Map<string, TillPayment>();
  handlers: ChangeHandlers | null = null;

  pair(): Promise<PairResult> {
    return Promise.resolve(structuredClone(PAIRING));
  }
  pull(input: PullInput): Promise<PullResult> {
    this.pulls.push(input);
    // The change sequence of a document is its position in the list.
    const all = (this.documents[input.collection] ?? []) as PullResult['documents'];
    const from = input.checkpoint?.seq ?? 0;
    const documents = all.slice(from, from + input.limit);
    const last = documents.at(-1);
    return Promise.resolve({
      documents,
      checkpoint: last ? { seq: from + documents.length, id: last.id } : input.checkpoint,
    });
  }
  async push(input: { commands: Command[] }) {
    this.pushes.push(input.commands);
    return { results: await this.answer(input.commands) };
  }
  /** What the server says of the till when it reports; `retiring` once the merchant retired it. */
  tillStatus: ReportResult['status'] = 'paired';
  report(input: { app_version: string; backlog: number }): Promise<ReportResult> {
    this.reports.push(input);
    return Promise.resolve({ status: this.tillStatus });
  }
  startPayment(input: { id: string; amount: number; currency: string; phone: string }): Promise<TillPayment> {
    const payment: TillPayment = {
      id: `pay_${input.id.slice(4)}`,
      status: 'pending',
      amount: input.amount,
      currency: input.currency,
      phone: input.phone,
      failure_code: null,
    };
    this.payments.set(payment.id, payment);
    return Promise.resolve(payment);
  }
  getPayment(input: { payment: string }): Promise<TillPayment> {
    const payment = this.payments.get(input.payment);
    return payment ? Promise.resolve({ ...payment }) : Promise.reject(new Error('no such payment'));
  }
  /** The door's questions, each as asked. */
  doorQuestions: DoorCheckinInput[] = [];
  /** Answers the door's question; by default the server cannot be reached and the door judges itself. */
  doorAnswer: (input: DoorCheckinInput) => Promise<DoorCheckinAnswer> = () =>
    Promise.reject(new Error('The server does not answer'));
  doorCheckin(input: DoorCheckinInput): Promise<DoorCheckinAnswer> {
    this.doorQuestions.push(input);
    return this.doorAnswer(input);
  }
  changes(handlers: ChangeHandlers): () => void {
    this.handlers = handlers;
    return () => {
      this.handlers = null;
    };
  }
  hint(hint: ChangeHint): void {
    this.handlers?.onHint(hint);
  }
}

/** The server's answer to a revoked till, as the tRPC client reports it. */
export function revokedError(): TRPCClientError<AnyRouter> {
  return new TRPCClientError('This till was revoked', {
    result: {
      error: {
        code: -32001,
        message: 'This till was revoked',
        data: { code: 'till_revoked', httpStatus: 401 },
      },
    },
  });
}

export class FakeBridge implements TillBridge {
  readonly kind = 'http' as const;
  printed: Array<{ printer: PrinterTarget; what: unknown; openDrawer: boolean }> = [];
  outcome: PrintOutcome = { ok: true, paperNearEnd: false };
  printReceipt(printer: PrinterTarget, receipt: unknown, options?: { openDrawer?: boolean }) {
    this.printed.push({ printer, what: receipt, openDrawer: options?.openDrawer ?? false });
    return Promise.resolve(this.outcome);
  }
  printText(printer: PrinterTarget, text: string) {
    this.printed.push({ printer, what: text, openDrawer: false });
    return Promise.resolve(this.outcome);
  }
  openDrawer() {
    return Promise.resolve(this.outcome);
  }
  status() {
    return Promise.resolve({
      online: true,
      coverOpen: false,
      paperOut: false,
      paperNearEnd: false,
      detail: '',
    });
  }
  listUsbPrinters() {
    return Promise.resolve([]);
  }
}

/** Quick retries, so tests see recovery in milliseconds. */
export const TEST_TIMING = { backoffMs: 20, maxBackoffMs: 100, intervalMs: 60_000, pullRetryMs: 50 };

export class Clock {
  constructor(public ms = Date.UTC(2026, 10, 26, 9, 0, 0)) {}
  now = () => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

let counter = 0;

export interface TestTill {
  store: TillStore;
  transport: FakeTransport;
  bridge: FakeBridge;
  clock: Clock;
}

/** A pending sale command as the outbox holds it; `overrides` change any field. */
export function makeCommand(overrides: Partial<CommandDoc> = {}): CommandDoc {
  return {
    id: 'cmd_01JAAAAAAAAAAAAAAAAAAAAAAA',
    type: 'order.create',
    created_at: 1_700_000_000_000,
    payload: { client_order_id: 'sale_1' },
    status: 'pending',
    client_order_id: 'sale_1',
    shift: 'shift_1',
    cashier: 'emp_1',
    receipt_number: 'T01-000001',
    receipt: null,
    sale: null,
    refund_amount: null,
    result: null,
    error: null,
    synced_at: null,
    ...overrides,
  };
}

/** A paired till on memory storage; the server's documents are seeded through a pull. */
export async function openTestTill(
  seed: Partial<Record<PullCollection, unknown[]>> = {},
  options: Partial<OpenOptions> = {},
): Promise<TestTill> {
  const transport = new FakeTransport();
  transport.documents = { stores: [STORE], ...seed };
  const bridge = new FakeBridge();
  const clock = new Clock();
  const store = await openTillStore({
    serverUrl: 'http://127.0.0.1:0',
    storage: getRxStorageMemory(),
    name: `till${++counter}${Math.random().toString(36).slice(2, 8)}`,
    multiInstance: false,
    transport,
    bridge,
    now: clock.now,
    online: () => true,
    timing: TEST_TIMING,
    ...options,
  });
  await store.pair('ABCD-1234');
  return { store, transport, bridge, clock };
}

/**
 * Opens again, on its storage and name, a till paired earlier (a reload): it is not paired again,
 * and a new transport serves the store and `seed`. Real time and no bridge unless `options` say.
 */
export async function reopenTestTill(
  seed: Partial<Record<PullCollection, unknown[]>>,
  options: Partial<OpenOptions> & Pick<OpenOptions, 'storage' | 'name'>,
): Promise<{ store: TillStore; transport: FakeTransport }> {
  const transport = new FakeTransport();
  transport.documents = { stores: [STORE], ...seed };
  const store = await openTillStore({
    serverUrl: 'http://127.0.0.1:0',
    multiInstance: false,
    transport,
    online: () => true,
    timing: TEST_TIMING,
    ...options,
  });
  return { store, transport };
}

/**
 * Waits until the till has pulled a collection and written what it got: a hint then makes it
 * pull the collection again, which it does only once the pull under way has written its pages.
 */
export async function pulled(t: TestTill, collection: PullCollection): Promise<void> {
  const pulls = () => t.transport.pulls.filter((p) => p.collection === collection).length;
  await settle(() => {
    expect(pulls()).toBeGreaterThan(0);
    expect(t.transport.handlers).not.toBeNull();
  });
  const before = pulls();
  t.transport.hint({ collections: [collection] });
  await settle(() => expect(pulls()).toBeGreaterThan(before));
}

/** `vi.waitFor` with room for a machine under load. */
export function settle<T>(check: () => T | Promise<T>): Promise<T> {
  return vi.waitFor(check, { timeout: 10_000, interval: 20 });
}
