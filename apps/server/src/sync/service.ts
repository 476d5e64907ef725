/**
 * What a till does with the server, whatever door it comes through (the tRPC
 * router in http/trpc.ts): pair, pull reference data from the change feed,
 * push its commands, report its state, and take mobile money. A command runs
 * through the same write path and the same services as a REST call, keyed by
 * its id, so it applies exactly once however often it is pushed.
 */
import type { DoorCheckinInput, startPaymentInput } from '@tz/core';
import {
  AppError,
  commandPayloads,
  newId,
  tanzanianMobileSchema,
  type Command,
  type CommandResult,
  type CommandType,
  type PairResult,
  type PullCollection,
  type PullInput,
  type PullResult,
  type ReportResult,
  type TillPayment,
  type AppSlug,
} from '@tz/core';
import type { z } from 'zod';
import type { TillActor } from '../actor.ts';
import type { Logger } from 'pino';
import type { Database, Queryable } from '../db/database.ts';
import { tillSaleInput, type OrderService } from '../retail/orders.ts';
import type { CustomerService } from '../customers/service.ts';
import { recordReceiptLink } from '../retail/receipt-links.ts';
import type { AppInstallations } from '../merchants/apps.ts';
import { idempotencyScope } from '../infra/idempotency.ts';
import { findOwned } from '../infra/owned.ts';
import type { PaymentRow, PaymentService } from '../payments/service.ts';
import type { WritePath } from '../infra/writes.ts';
import { authenticationRefusal, type TillService } from '../tills/tills.ts';
import type { PrintJobService } from '../tills/print-jobs.ts';
import { prepareTillEmployees } from '../tills/till-employees.ts';
import type { ShiftService } from '../tills/shifts.ts';
import { changedCollections, readChanges } from './changes.ts';
import type { Clock } from '../infra/clock.ts';
import type { EventSignal } from '../infra/events.ts';
import { toDocument } from './documents.ts';
import { isDeskConflict } from '../hospitality/desk-conflicts.ts';
import { FRONT_DESK_APP, FRONT_DESK_APPLY, type FrontDeskServices } from './front-desk-commands.ts';
import { DOOR_APP, DOOR_APPLY, type DoorServices } from './door-commands.ts';
import { BOX_OFFICE_APP, BOX_OFFICE_APPLY, type BoxOfficeServices } from './box-office-commands.ts';
import { isDataError, isTransientFailure } from '../db/errors.ts';

type Payload<T extends CommandType> = z.output<(typeof commandPayloads)[T]>;

/** The services a till's commands run through, as a REST call's would. */
export interface CommandServices extends FrontDeskServices, DoorServices, BoxOfficeServices {
  orders: OrderService;
  shifts: ShiftService;
  printJobs: PrintJobService;
  customers: CustomerService;
}

/** Each command type's effect, in the write's transaction; its answer is what the till is told. */
const APPLY: {
  [T in CommandType]: (
    services: CommandServices,
    db: Queryable,
    till: TillActor,
    payload: Payload<T>,
    command: Command,
    afterCommit: (task: () => Promise<void>) => void,
  ) => Promise<Record<string, unknown>>;
} = {
  'order.create': async ({ orders }, db, till, payload) => {
    const { receipt_token: receiptToken, ...sale } = payload;
    const { order, created } = await orders.create(db, till, await tillSaleInput(db, till, sale));
    if (receiptToken !== undefined) await recordReceiptLink(db, till, order.id, receiptToken);
    return { order: order.id, receipt_number: order.receipt_number, status: order.status, created };
  },
  'order.refund': async ({ orders }, db, till, payload) => {
    const { order: _order, client_order_id: _client, ...refund } = payload;
    const order = await orders.refund(db, till, await orders.findId(db, till, payload), refund);
    return { order: order.id, status: order.status, refunded_amount: order.refunded_amount };
  },
  'order.void': async ({ orders }, db, till, payload) => {
    const { order: _order, client_order_id: _client, ...input } = payload;
    const order = await orders.void(db, till, await orders.findId(db, till, payload), input);
    return { order: order.id, status: order.status };
  },
  'shift.open': async ({ shifts }, db, till, payload) => ({
    shift: (await shifts.open(db, till, payload)).shift.id,
  }),
  'shift.cash_movement': async ({ shifts }, db, till, payload, command) => ({
    shift: (await shifts.recordCashMovement(db, till, payload, command.id)).shift.id,
  }),
  'shift.no_sale': async ({ shifts }, db, till, payload, command) => ({
    shift: (await shifts.recordNoSale(db, till, payload, command.id)).shift.id,
  }),
  'shift.close': async ({ shifts }, db, till, payload) => {
    const { shift } = await shifts.close(db, till, payload);
    return { shift: shift.id, report: shift.report };
  },
  'print_job.result': async ({ printJobs }, db, till, payload) => {
    const job = await printJobs.recordResult(db, till, payload);
    return { print_job: job.id, status: job.status };
  },
  'customer.create': async ({ customers }, db, till, payload) => ({
    ...(await customers.createForTill(db, till, payload)),
  }),
  ...FRONT_DESK_APPLY,
  ...DOOR_APPLY,
  ...BOX_OFFICE_APPLY,
};

/** The app each command belongs to: while the merchant has it removed, the command is refused `app_not_installed`. */
const COMMAND_APP: Record<CommandType, AppSlug> = {
  'order.create': 'retail',
  'order.refund': 'retail',
  'order.void': 'retail',
  'shift.open': 'retail',
  'shift.cash_movement': 'retail',
  'shift.no_sale': 'retail',
  'shift.close': 'retail',
  'print_job.result': 'printers',
  'customer.create': 'retail',
  ...FRONT_DESK_APP,
  ...DOOR_APP,
  ...BOX_OFFICE_APP,
};

/** A refusal the till keeps on screen: the error as the API would answer it. */
const refusal = (id: string, error: AppError): CommandResult => ({
  id,
  status: 'refused',
  error: {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  },
});

/**
 * Conditions under which a command could not be tried, and is sent again
 * later: the server busy, the database out of reach, or the same command
 * running elsewhere. Anything else would fail the same way every time, so it
 * is a refusal (a room given away meanwhile too): otherwise the till would
 * send it for ever and nothing behind it would ever apply.
 */
const isTransient = (error: unknown): boolean =>
  error instanceof AppError
    ? error.kind.status >= 500 || error.code === 'idempotency_key_in_use' || error.kind.status === 429
    : isTransientFailure(error);

/** Why a command failed, as the till is told: the database's own words stay in the log. */
function failureOf(command: Command, error: unknown): AppError {
  if (error instanceof AppError) return error;
  return isDataError(error)
    ? new AppError('parameter_invalid', `The ${command.type} command holds a value that cannot be stored`, {
        details: { payload: 'holds a value that cannot be stored' },
      })
    : new AppError('internal_error', `The ${command.type} command failed on the server`);
}

export class SyncService {
  constructor(
    private readonly database: Database,
    private readonly writes: WritePath,
    private readonly apps: AppInstallations,
    private readonly tills: TillService,
    private readonly payments: PaymentService,
    private readonly commands: CommandServices,
    private readonly events: EventSignal,
    private readonly publicUrl: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Exchanges a pairing code, once, for the device credential. */
  async pair(code: string): Promise<PairResult> {
    const paired = await this.tills.pair(this.database.pool, code);
    return {
      credential: paired.credential,
      till: {
        id: paired.till.id,
        name: paired.till.name,
        store: paired.till.store,
        receipt_prefix: paired.till.receipt_prefix,
      },
      merchant: paired.merchant,
      livemode: paired.livemode,
      public_url: this.publicUrl,
    };
  }

  /** The till a credential names; `reporting`: an ended till may still report what it holds. */
  async authenticate(credential: string, options: { reporting?: boolean } = {}): Promise<TillActor> {
    if (!options.reporting) return this.tills.require(this.database.pool, credential);
    const result = await this.tills.authenticate(this.database.pool, credential);
    if (result.status === 'invalid') throw authenticationRefusal('invalid');
    return result.till;
  }

  async pull(till: TillActor, input: PullInput): Promise<PullResult> {
    if (input.collection === 'employees') await prepareTillEmployees(this.database, till);
    const page = await readChanges(
      this.database.pool,
      input.collection,
      {
        merchantId: till.merchantId,
        livemode: till.livemode,
        storeId: till.storeId,
        tillId: till.tillId,
        now: this.clock.now(),
      },
      input.checkpoint,
      input.limit,
    );
    return {
      documents: page.rows.map((row) => toDocument(input.collection, row)),
      checkpoint: page.checkpoint,
    };
  }

  /**
   * Applies commands in the order given, each in its own transaction (one bad
   * command never blocks the rest). A command that could not be tried gets no
   * result and ends the batch, so a later command never overtakes it.
   * `refused` holds, by index, commands the door already found breaking the
   * input rules: each is refused with its reason and the rest go on.
   */
  async push(
    till: TillActor,
    commands: Command[],
    refused: ReadonlyMap<number, AppError> = new Map(),
  ): Promise<CommandResult[]> {
    const results: CommandResult[] = [];
    for (const [index, command] of commands.entries()) {
      const broken = refused.get(index);
      const result = broken ? refusal(command.id, broken) : await this.apply(till, command);
      if (!result) break;
      results.push(result);
    }
    return results;
  }

  /**
   * One command through the write path. `onApplied` runs in the command's
   * transaction when it applies for the first time (not on a replay).
   */
  async apply(
    till: TillActor,
    command: Command,
    onApplied?: (db: Queryable, result: Record<string, unknown>) => Promise<void>,
  ): Promise<CommandResult | null> {
    const parsed = commandPayloads[command.type].safeParse(command.payload);
    if (!parsed.success) {
      const details: Record<string, string> = {};
      for (const issue of parsed.error.issues) details[issue.path.join('.') || 'payload'] ??= issue.message;
      return refusal(
        command.id,
        new AppError('parameter_invalid', `The ${command.type} command is malformed`, { details }),
      );
    }
    const apply = APPLY[command.type] as (
      services: CommandServices,
      db: Queryable,
      till: TillActor,
      payload: unknown,
      command: Command,
      afterCommit: (task: () => Promise<void>) => void,
    ) => Promise<Record<string, unknown>>;
    try {
      await this.apps.assertInstalled(this.database.pool, till, COMMAND_APP[command.type]);
      const outcome = await this.writes.run({
        idempotency: {
          scope: idempotencyScope(till, `command ${command.type}`, command.id),
          body: command.payload,
        },
        token: newId('request'),
        work: async ({ db, afterCommit }) => {
          const body = await apply(this.commands, db, till, parsed.data, command, afterCommit);
          await onApplied?.(db, body);
          return { status: 200, body };
        },
      });
      return { id: command.id, status: 'applied', result: outcome.body as Record<string, unknown> };
    } catch (error) {
      if (!isTransient(error)) {
        if (!(error instanceof AppError))
          this.logger.error({ err: error }, `till command ${command.id} refused`);
        // A room clash between desks is shown on every desk: refused only once it is recorded.
        if (isDeskConflict(command.type, error) && !(await this.recordConflict(till, command, error)))
          return null;
        return refusal(command.id, failureOf(command, error));
      }
      // The push stops here and the till sends the rest again; nobody else would see why.
      this.logger.error({ err: error }, `till push stopped at command ${command.id} (${command.type})`);
      return null;
    }
  }

  private async recordConflict(till: TillActor, command: Command, error: AppError): Promise<boolean> {
    try {
      const step = { id: command.id, type: command.type, payload: command.payload as never };
      await this.commands.deskConflicts.record(this.database.pool, till, step, error);
      return true;
    } catch (failure) {
      this.logger.error({ err: failure }, `desk conflict of command ${command.id} not recorded`);
      return false;
    }
  }

  /**
   * The live stream: each time something in the till's scope changed after
   * `since`, which collections, tracked by the newest change so a stream
   * resumed with that id misses nothing. Wakes when this process commits a
   * write and polls every `pollMs` for other processes' writes. Each time it
   * looks, it also checks the till is still paired: once it is revoked,
   * whichever process answered the revoke, the stream ends with `till_revoked`.
   */
  async *changes(
    till: TillActor,
    since: number,
    signal: AbortSignal,
    pollMs = 1000,
  ): AsyncGenerator<{ seq: number; collections: PullCollection[] }> {
    const scope = {
      merchantId: till.merchantId,
      livemode: till.livemode,
      storeId: till.storeId,
      tillId: till.tillId,
    };
    let last = since;
    const pool = this.database.pool;
    while (!signal.aborted) {
      const [changed] = await Promise.all([
        changedCollections(pool, { ...scope, now: this.clock.now() }, last),
        this.tills.assertActive(pool, till),
      ]);
      if (changed.collections.length > 0) {
        last = changed.seq;
        yield { seq: last, collections: changed.collections };
      }
      await wake(this.events, signal, pollMs);
    }
  }

  report(till: TillActor, input: Parameters<TillService['report']>[2]): Promise<ReportResult> {
    return this.tills.report(this.database.pool, till, input);
  }

  /** Asks the payer's phone for a mobile money payment, once per id; the till then waits for `paid`. */
  async startPayment(till: TillActor, input: z.output<typeof startPaymentInput>): Promise<TillPayment> {
    const phone = tanzanianMobileSchema.safeParse(input.phone);
    if (!phone.success) {
      throw new AppError('phone_invalid', 'Give the payer’s Tanzanian mobile number', {
        details: { phone: 'must be a Tanzanian mobile number' },
      });
    }
    const outcome = await this.writes.run({
      idempotency: {
        scope: idempotencyScope(till, 'command payment.start', input.id),
        body: input,
      },
      token: newId('request'),
      work: async ({ db, afterCommit }) => {
        const payment = await this.payments.create(
          db,
          till,
          {
            amount: input.amount,
            currency: input.currency,
            phone: phone.data,
            metadata: { till: till.tillId },
          },
          afterCommit,
        );
        return { status: 201, body: tillPayment(payment) };
      },
    });
    return outcome.body as TillPayment;
  }

  /**
   * The door's online question: the code judged as `POST /v1/events/checkin`
   * judges it, and admitted on `ok` under the door's scan id. Keyed by the
   * scan, so the same scan asked again answers the same admission, and the
   * door's later report of it is a repeat.
   */
  async doorCheckin(till: TillActor, input: DoorCheckinInput): Promise<Record<string, unknown>> {
    await this.apps.assertInstalled(this.database.pool, till, 'events');
    const outcome = await this.writes.run({
      idempotency: { scope: idempotencyScope(till, 'door checkin', input.scan), body: input },
      token: newId('request'),
      work: async ({ db }) => ({ status: 200, body: await this.commands.checkins.checkin(db, till, input) }),
    });
    return outcome.body as Record<string, unknown>;
  }

  /** A payment this till started (with the provider's reference, for its receipt); another's is not found. */
  async getPayment(till: TillActor, paymentId: string): Promise<TillPayment> {
    const payment = await findOwned<PaymentRow>(this.database.pool, 'payments', 'payment', till, paymentId);
    if (payment.metadata.till !== till.tillId) {
      throw new AppError('resource_missing', `No payment '${paymentId}'`, {
        details: { payment: 'is not a payment this till started' },
      });
    }
    return { ...tillPayment(payment), reference: payment.provider_reference };
  }
}

function tillPayment(payment: {
  id: string;
  status: TillPayment['status'];
  amount: number;
  currency: string;
  phone: string;
  failure_code: string | null;
}): TillPayment {
  return {
    id: payment.id,
    status: payment.status,
    amount: payment.amount,
    currency: payment.currency,
    phone: payment.phone,
    failure_code: payment.failure_code,
  };
}

/** Resolves on this process's next committed write (settling briefly, so a burst is one wake), a timeout, or abort. */
function wake(events: EventSignal, signal: AbortSignal, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    const stop = events.subscribe(() => setTimeout(done, 20));
    signal.addEventListener('abort', done, { once: true });
  });
}
