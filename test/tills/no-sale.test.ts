/**
 * `shift.no_sale` through the tills' push (the write path, keyed by the command
 * id): recorded once with the shift, the cashier, the reason and the time,
 * counted in the Z report and per cashier, and each bad command refused alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Command } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { makeEmployee, pairedTill } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let actor: TillActor;
let sync: RunningServer['services']['sync'];
let cashier: { id: string };
let manager: { id: string };

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url);
  api = client(server.url, merchant.keys.secretTest);
  const paired = await pairedTill(server, api);
  actor = paired.actor;
  cashier = await makeEmployee(api, [paired.till.store]);
  manager = await makeEmployee(api, [paired.till.store], { name: 'Mama Rehema', role: 'manager' });
  sync = server.services.sync;
});
afterAll(() => server?.close());

const at = Math.floor(Date.now() / 1000);
const command = (type: Command['type'], payload: Record<string, unknown>): Command => ({
  id: `cmd_${newId('request').slice(-26).toUpperCase()}`,
  type,
  created_at: Date.now(),
  payload,
});
const noSale = (shift: string, overrides: Record<string, unknown> = {}) =>
  command('shift.no_sale', { shift, cashier: cashier.id, reason: 'Change for a customer', at, ...overrides });
const shiftOf = async (id: string) => {
  const response = await api.get(`/v1/retail/shifts/${id}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body;
};

describe('a no-sale pushed by a till', () => {
  it('is recorded once with its shift, cashier, reason and time, and counted in the Z report', async () => {
    const shift = newId('shift');
    const first = noSale(shift, { reason: '  Change for a customer  ' });
    const results = await sync.push(actor, [
      command('shift.open', { shift, cashier: cashier.id, opening_float: 20_000, opened_at: at }),
      first,
    ]);
    expect(results.map((result) => result.status)).toEqual(['applied', 'applied']);
    expect(results[1]).toMatchObject({ result: { shift } });

    // The same command again (a push retried after a lost answer) records nothing more.
    const [again] = await sync.push(actor, [first]);
    expect(again).toEqual(results[1]);

    const open = await shiftOf(shift);
    expect(open.no_sales).toEqual([
      { cashier: cashier.id, approved_by: null, reason: 'Change for a customer', at },
    ]);
    expect(open.cash_movements).toEqual([]);
    expect(open.report).toMatchObject({ no_sale_count: 1, expected_total: 20_000 });
    expect(open.report.cashiers).toEqual([
      { cashier: cashier.id, order_count: 0, sales: 0, refunds: 0, no_sales: 1, desk_cash: 0 },
    ]);

    const approved = noSale(shift, { reason: 'Counting the float', approved_by: manager.id });
    const close = command('shift.close', {
      shift,
      counted: [{ method: 'cash', amount: 20_000 }],
      closed_at: at + 60,
    });
    const after = noSale(shift, { reason: 'After the close' });
    const closing = await sync.push(actor, [approved, close, after]);
    expect(closing.map((result) => result.status)).toEqual(['applied', 'applied', 'refused']);
    expect(closing[2]).toMatchObject({ error: { code: 'state_transition_invalid' } });

    const closed = await shiftOf(shift);
    expect(closed.no_sales).toHaveLength(2);
    expect(closed.no_sales[1]).toEqual({
      cashier: cashier.id,
      approved_by: manager.id,
      reason: 'Counting the float',
      at,
    });
    // Kept at close: no money moved, the drawer holds the float, two no-sales by the one cashier.
    expect(closed.report).toMatchObject({ no_sale_count: 2, difference_total: 0 });
    expect(closed.report.cashiers).toEqual([
      { cashier: cashier.id, order_count: 0, sales: 0, refunds: 0, no_sales: 2, desk_cash: 0 },
    ]);
    const listed = await api.get('/v1/retail/shifts?status=closed&limit=100');
    const inList = listed.body.data.find((one: { id: string }) => one.id === shift);
    expect(inList.no_sales).toHaveLength(2);
    expect(inList.report.no_sale_count).toBe(2);
  });

  it('judges each command alone: bad ones are refused with the field, the good one in the same push applies', async () => {
    const shift = newId('shift');
    const [opened] = await sync.push(actor, [
      command('shift.open', { shift, cashier: cashier.id, opening_float: 0, opened_at: at }),
    ]);
    expect(opened?.status).toBe('applied');
    const results = await sync.push(actor, [
      noSale(shift, { reason: '   ' }),
      noSale(shift, { amount: 5_000 }),
      noSale(shift, { cashier: 'emp_nobody' }),
      noSale(shift, { approved_by: cashier.id }),
      noSale(newId('shift')),
      noSale(shift, { reason: 'Customer swapped a note' }),
    ]);
    expect(results.map((result) => result.status)).toEqual([
      'refused',
      'refused',
      'refused',
      'refused',
      'refused',
      'applied',
    ]);
    expect(results[0]).toMatchObject({
      error: { code: 'parameter_invalid', details: { reason: expect.any(String) } },
    });
    expect(results[1]).toMatchObject({ error: { code: 'parameter_invalid' } });
    expect(results[2]).toMatchObject({
      error: { code: 'parameter_invalid', details: { cashier: expect.any(String) } },
    });
    expect(results[3]).toMatchObject({
      error: { code: 'parameter_invalid', details: { approved_by: expect.any(String) } },
    });
    expect(results[4]).toMatchObject({ error: { code: 'resource_missing' } });
    const recorded = await shiftOf(shift);
    expect(recorded.no_sales.map((one: { reason: string }) => one.reason)).toEqual([
      'Customer swapped a note',
    ]);
    expect(recorded.report.no_sale_count).toBe(1);
  });
});
