import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { client, signUp, startTestServer, type Merchant } from '../support/server.ts';
import { makeProduct, paidPayment, sell, type Api } from '../support/retail.ts';
import { inTransaction, makeEmployee, pairedTill, refusal } from '../support/tills.ts';
import type { Transaction } from '../../apps/server/src/db/database.ts';

let server: RunningServer;
let merchant: Merchant;
let api: Api;
let till: { id: string; store: string };
let actor: TillActor;
let cashier: { id: string };
let product: { id: string };

beforeAll(async () => {
  server = await startTestServer();
  merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
  ({ till, actor } = await pairedTill(server, api));
  cashier = await makeEmployee(api, [till.store]);
  product = await makeProduct(api, { price: 4_000 });
});
afterAll(() => server?.close());

const now = () => Math.floor(Date.now() / 1000);
const tx = <T>(work: (db: Transaction) => Promise<T>) => inTransaction(server, work);
const open = (shift: string, opening_float = 50_000) =>
  tx((db) =>
    server.services.shifts.open(db, actor, { shift, cashier: cashier.id, opening_float, opened_at: now() }),
  );
const eventTypes = async (id: string) =>
  (
    await server.database.pool.query(
      `SELECT type FROM events WHERE merchant_id = $1 AND data->'object'->>'id' = $2 ORDER BY seq`,
      [merchant.id, id],
    )
  ).rows.map((row) => row.type);

describe('a shift from open to Z report', () => {
  it('opens, moves cash, closes with a Z report that adds up, and ignores repeated commands', async () => {
    const shift = newId('shift');
    const opened = await open(shift);
    expect(opened.changed).toBe(true);
    expect(opened.shift).toMatchObject({
      id: shift,
      object: 'shift',
      till: till.id,
      store: till.store,
      cashier: cashier.id,
      status: 'open',
      currency: 'TZS',
      opening_float: 50_000,
      closed_at: null,
    });
    // A repeated open changes nothing, even with another float.
    const again = await open(shift, 1);
    expect(again.changed).toBe(false);
    expect(again.shift.opening_float).toBe(50_000);

    const line = (quantity: number) => [{ product: product.id, quantity }];
    const inShift = { shift, till: till.id };
    // Two sales name the cashier who rang them up; the rest name nobody.
    const cashSale = await sell(api, {
      ...inShift,
      cashier: cashier.id,
      lines: line(2),
      tenders: [{ method: 'cash', amount: 10_000 }],
    });
    expect(cashSale.body).toMatchObject({ shift, change_due: 2_000 });
    const payment = await paidPayment(api, 4_000);
    await sell(api, {
      ...inShift,
      lines: line(1),
      tenders: [{ method: 'mobile_money', payment: payment.id }],
    });
    await sell(api, {
      ...inShift,
      lines: line(3),
      tenders: [{ method: 'card', amount: 12_000, reference: 'AUTH-1' }],
    });
    const voided = await sell(api, {
      ...inShift,
      lines: line(1),
      tenders: [{ method: 'cash', amount: 4_000 }],
    });
    expect((await api.post(`/v1/orders/${voided.body.id}/void`, {})).status).toBe(200);
    const refunded = await sell(api, {
      ...inShift,
      cashier: cashier.id,
      lines: line(2),
      tenders: [{ method: 'cash', amount: 8_000 }],
    });
    const refund = await api.post(`/v1/orders/${refunded.body.id}/refund`, {
      lines: [{ line: 0, quantity: 1 }],
    });
    expect(refund.status).toBe(200);
    // A sale outside the shift stays out of its report.
    await sell(api, { lines: line(5), tenders: [{ method: 'cash', amount: 20_000 }] });

    const payIn = newId('event');
    for (const [commandId, kind, amount] of [
      [payIn, 'pay_in', 5_000],
      [payIn, 'pay_in', 5_000],
      [newId('event'), 'pay_out', 2_000],
    ] as const) {
      await tx((db) =>
        server.services.shifts.recordCashMovement(
          db,
          actor,
          { shift, kind, amount, reason: 'Chenji / mafuta', at: now() },
          commandId,
        ),
      );
    }

    // While open, the shift shows the running figures, nothing counted.
    const running = (await api.get(`/v1/retail/shifts/${shift}`)).body;
    expect(running.cash_movements).toEqual([
      { kind: 'pay_in', amount: 5_000, reason: 'Chenji / mafuta', at: expect.any(Number) },
      { kind: 'pay_out', amount: 2_000, reason: 'Chenji / mafuta', at: expect.any(Number) },
    ]);
    expect(running.report).toMatchObject({ expected_total: 81_000, counted_total: null });

    const closed = await tx((db) =>
      server.services.shifts.close(db, actor, {
        shift,
        counted: [
          { method: 'cash', amount: 64_500 },
          { method: 'card', amount: 12_000 },
        ],
        closed_at: now(),
      }),
    );
    expect(closed.changed).toBe(true);
    // Cash: 50,000 float + (8,000 + 8,000) sales - 4,000 refund + 5,000 in - 2,000 out = 65,000.
    expect(closed.shift).toMatchObject({ status: 'closed', expected_cash: 65_000, counted_cash: 64_500 });
    expect(closed.shift.report).toEqual({
      order_count: 4,
      voided_count: 1,
      sales_total: 32_000,
      refunds_total: 4_000,
      expected_total: 81_000,
      counted_total: 76_500,
      difference_total: -500,
      no_sale_count: 0,
      lines: [
        {
          method: 'cash',
          taken: 18_000,
          change: 2_000,
          sales: 16_000,
          refunds: 4_000,
          float: 50_000,
          pay_ins: 5_000,
          pay_outs: 2_000,
          desk: 0,
          expected: 65_000,
          counted: 64_500,
          difference: -500,
        },
        {
          method: 'mobile_money',
          taken: 4_000,
          change: 0,
          sales: 4_000,
          refunds: 0,
          float: 0,
          pay_ins: 0,
          pay_outs: 0,
          desk: 0,
          expected: 4_000,
          counted: null,
          difference: null,
        },
        {
          method: 'card',
          taken: 12_000,
          change: 0,
          sales: 12_000,
          refunds: 0,
          float: 0,
          pay_ins: 0,
          pay_outs: 0,
          desk: 0,
          expected: 12_000,
          counted: 12_000,
          difference: 0,
        },
      ],
      cashiers: [
        { cashier: cashier.id, order_count: 2, sales: 16_000, refunds: 4_000, no_sales: 0, desk_cash: 0 },
        { cashier: null, order_count: 2, sales: 16_000, refunds: 0, no_sales: 0, desk_cash: 0 },
      ],
    });
    const retrieved = (await api.get(`/v1/retail/shifts/${shift}`)).body;
    expect(retrieved.report).toEqual(closed.shift.report);
    expect(retrieved.counted).toEqual([
      { method: 'cash', amount: 64_500 },
      { method: 'card', amount: 12_000 },
    ]);

    // Repeats change nothing: a second close keeps the first report, the events are not written twice.
    const reclosed = await tx((db) =>
      server.services.shifts.close(db, actor, {
        shift,
        counted: [{ method: 'cash', amount: 1 }],
        closed_at: now(),
      }),
    );
    expect(reclosed.changed).toBe(false);
    expect(reclosed.shift.report).toEqual(closed.shift.report);
    expect(await eventTypes(shift)).toEqual(['shift.opened', 'shift.closed']);
    // A later refund does not rewrite the report kept at close.
    await api.post(`/v1/orders/${cashSale.body.id}/refund`, {});
    expect((await api.get(`/v1/retail/shifts/${shift}`)).body.report).toEqual(closed.shift.report);
    // A repeated movement command is still a no-op; a new one after close is refused.
    const repeat = await tx((db) =>
      server.services.shifts.recordCashMovement(
        db,
        actor,
        { shift, kind: 'pay_in', amount: 5_000, reason: 'x', at: now() },
        payIn,
      ),
    );
    expect(repeat.changed).toBe(false);
    const late = await refusal(
      tx((db) =>
        server.services.shifts.recordCashMovement(
          db,
          actor,
          { shift, kind: 'pay_in', amount: 1, reason: 'x', at: now() },
          newId('event'),
        ),
      ),
    );
    expect(late.code).toBe('state_transition_invalid');
  });

  it('lists shifts newest first, filtered by till and status, with the report kept at close', async () => {
    const other = await pairedTill(server, api);
    const first = newId('shift');
    const second = newId('shift');
    await open(first);
    await tx((db) =>
      server.services.shifts.close(db, actor, { shift: first, counted: [], closed_at: now() }),
    );
    await open(second);
    await tx((db) =>
      server.services.shifts.open(db, other.actor, {
        shift: newId('shift'),
        cashier: cashier.id,
        opening_float: 0,
        opened_at: now(),
      }),
    );
    const list = (await api.get(`/v1/retail/shifts?till=${till.id}&limit=2`)).body;
    expect(list.data.map((entry: { id: string }) => entry.id)).toEqual([second, first]);
    expect(list.data[0].report).toBeNull();
    expect(list.data[1].report).toMatchObject({ expected_total: 50_000, counted_total: null });
    const closed = (await api.get(`/v1/retail/shifts?till=${till.id}&status=closed&limit=100`)).body;
    expect(closed.data.every((entry: { status: string }) => entry.status === 'closed')).toBe(true);
    expect(closed.data.map((entry: { id: string }) => entry.id)).toContain(first);
  });
});

describe('refusals and isolation', () => {
  it('refuses a cashier not of this account, and a shift id another account holds', async () => {
    const strangerServer = await signUp(server.url);
    const stranger = client(server.url, strangerServer.keys.secretTest);
    const foreign = await makeEmployee(stranger, [
      (await stranger.post('/v1/retail/stores', { name: 'S' })).body.id,
    ]);
    const error = await refusal(
      tx((db) =>
        server.services.shifts.open(db, actor, {
          shift: newId('shift'),
          cashier: foreign.id,
          opening_float: 0,
          opened_at: now(),
        }),
      ),
    );
    expect(error.details).toEqual({ cashier: 'is not an employee of this account' });

    const theirs = await pairedTill(server, stranger);
    const theirCashier = await makeEmployee(stranger, [theirs.till.store]);
    const shift = newId('shift');
    await tx((db) =>
      server.services.shifts.open(db, theirs.actor, {
        shift,
        cashier: theirCashier.id,
        opening_float: 0,
        opened_at: now(),
      }),
    );
    const clash = await refusal(open(shift));
    expect(clash.details).toEqual({ shift: 'is the id of another shift' });
  });

  it('lets only the till that opened a shift move or close it', async () => {
    const shift = newId('shift');
    await open(shift);
    const other = await pairedTill(server, api);
    const error = await refusal(
      tx((db) => server.services.shifts.close(db, other.actor, { shift, counted: [], closed_at: now() })),
    );
    expect(error.code).toBe('resource_missing');
  });

  it('answers 404 for another merchant’s or the other mode’s shift', async () => {
    const shift = newId('shift');
    await open(shift);
    const stranger = client(server.url, (await signUp(server.url)).keys.secretTest);
    const live = client(server.url, merchant.keys.secretLive);
    for (const other of [stranger, live]) {
      expect((await other.get(`/v1/retail/shifts/${shift}`)).status).toBe(404);
      expect(JSON.stringify((await other.get('/v1/retail/shifts')).body)).not.toContain(shift);
    }
  });

  it('refuses a sale naming a malformed shift id, naming the field', async () => {
    const response = await sell(api, {
      shift: 'my-shift',
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: 4_000 }],
    });
    expect(response.status).toBe(400);
    expect(response.body.details).toHaveProperty('shift');
  });
});
