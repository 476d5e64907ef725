import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type Command, type CommandResult } from '@tz/core';
import { client, signUp, startTestServer } from '../support/server.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { trpcTill } from '../support/tills.ts';
import type { RunningServer } from '../../apps/server/src/server.ts';

let server: RunningServer;
let api: Api;
let product: { id: string; price: number };
let till: { id: string; store: string; receipt_prefix: string };
let push: (...commands: Command[]) => Promise<CommandResult[]>;
let receipts = 0;

const commandId = () => `cmd_${newId('request').slice(-26).toUpperCase()}`;
/** A mobile number no other test uses: 0712 and six digits. */
const freshPhone = () => `0712${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
const normalised = (phone: string) => `255${phone.slice(1)}`;

function customerCommand(
  overrides: Record<string, unknown> = {},
): Command & { payload: { customer: string; name: string; phone: string } } {
  return {
    id: commandId(),
    type: 'customer.create',
    created_at: Date.now(),
    payload: {
      customer: newId('customer'),
      name: 'Asha Mwinyi',
      phone: freshPhone(),
      ...(overrides as { customer?: string; name?: string; phone?: string }),
    },
  };
}

function saleTo(customer: string): Command {
  const receipt = `${till.receipt_prefix}-${String(++receipts).padStart(6, '0')}`;
  return {
    id: commandId(),
    type: 'order.create',
    created_at: Date.now(),
    payload: {
      client_order_id: `sale-${receipt}`,
      store: till.store,
      receipt_number: receipt,
      customer,
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'cash', amount: product.price }],
    },
  };
}

const applied = (result: CommandResult | undefined) => {
  expect(result?.status, JSON.stringify(result)).toBe('applied');
  return (result as Extract<CommandResult, { status: 'applied' }>).result;
};

async function customersWithPhone(phone: string) {
  const listed = await api.get(`/v1/customers?phone=${normalised(phone)}`);
  expect(listed.status).toBe(200);
  return listed.body.data as Array<{ id: string; name: string; metadata: Record<string, string> }>;
}

async function orderOf(result: Record<string, unknown>) {
  const order = await api.get(`/v1/orders/${String(result.order)}`);
  expect(order.status).toBe(200);
  return order.body as { customer: string | null; flags: string[] };
}

beforeAll(async () => {
  server = await startTestServer();
  const merchant = await signUp(server.url, { business_name: 'Duka la Wateja' });
  api = client(server.url, merchant.keys.secretTest);
  product = await makeProduct(api, { price: 2500, track_stock: false });
  ({ till, push } = await trpcTill(server, api));
});
afterAll(() => server?.close());

describe('a customer made at the till (customer.create)', () => {
  it('creates the customer under the till’s id once, however often it is pushed, with its event', async () => {
    const command = customerCommand({ name: '  Juma Ali ' });
    const [first, second] = await Promise.all([push(command), push(command)]);
    const again = await push(command);
    // A push that met the other attempt holding the key gets no result, and the till sends it again.
    const answers = [...first, ...second, ...again];
    expect(answers.length).toBeGreaterThanOrEqual(2);
    for (const answer of answers) {
      expect(applied(answer)).toEqual({ customer: command.payload.customer, linked: false });
    }
    const found = await customersWithPhone(command.payload.phone);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      id: command.payload.customer,
      name: 'Juma Ali',
      phone: normalised(command.payload.phone),
      metadata: { till: till.id },
    });
    const events = await server.database.pool.query<{ type: string; object: { id: string } }>(
      `SELECT type, data->'object' AS object FROM events WHERE data->'object'->>'id' = $1`,
      [command.payload.customer],
    );
    expect(events.rows).toEqual([{ type: 'customer.created', object: found[0] }]);
  });

  it('links to the customer who already has the phone, in any written form, rather than making a second', async () => {
    const phone = freshPhone();
    const existing = await api.post('/v1/customers', { name: 'Mama Neema', phone });
    expect(existing.status).toBe(201);
    const command = customerCommand({ name: 'Neema', phone: `+255 ${phone.slice(1, 4)} ${phone.slice(4)}` });
    const sale = saleTo(command.payload.customer);
    const [made, sold] = await push(command, sale);
    expect(applied(made)).toEqual({ customer: existing.body.id, linked: true });
    expect(await customersWithPhone(phone)).toEqual([existing.body]);
    // The sale names the till's id; it is recorded against the customer that id was linked to.
    expect(await orderOf(applied(sold))).toMatchObject({ customer: existing.body.id, flags: [] });
    // Sent again under another command id, the till's id still names the same customer.
    expect(applied((await push({ ...command, id: commandId() }))[0])).toEqual({
      customer: existing.body.id,
      linked: true,
    });
    const events = await server.database.pool.query(
      `SELECT 1 FROM events WHERE type = 'customer.created' AND data->'object'->>'id' = $1`,
      [command.payload.customer],
    );
    expect(events.rows).toHaveLength(0);
  });

  it('records a sale made offline to a customer made offline against that customer', async () => {
    const command = customerCommand();
    const [made, sold] = await push(command, saleTo(command.payload.customer));
    expect(applied(made)).toMatchObject({ customer: command.payload.customer });
    expect(await orderOf(applied(sold))).toMatchObject({ customer: command.payload.customer, flags: [] });
  });

  it('judges bad input command by command, and still records the sale to a customer it refused', async () => {
    const badPhone = customerCommand({ phone: '0222 123 456' });
    const noName = customerCommand({ name: ' ' });
    const badId = customerCommand({ customer: 'cus_123' });
    const good = customerCommand();
    const results = await push(badPhone, saleTo(badPhone.payload.customer), noName, badId, good);
    expect(results).toHaveLength(5);
    expect(results[0]).toMatchObject({
      status: 'refused',
      error: { code: 'parameter_invalid', details: { phone: expect.any(String) } },
    });
    // The sale stands, without the customer, flagged for the office to look at.
    expect(await orderOf(applied(results[1]))).toMatchObject({ customer: null, flags: ['customer_unknown'] });
    expect(results[2]).toMatchObject({ status: 'refused', error: { details: { name: expect.any(String) } } });
    expect(results[3]).toMatchObject({
      status: 'refused',
      error: { details: { customer: expect.any(String) } },
    });
    expect(applied(results[4])).toEqual({ customer: good.payload.customer, linked: false });
    expect((await api.get(`/v1/customers/${badPhone.payload.customer}`)).status).toBe(404);
  });

  it('refuses, rather than stalling the queue, an id another merchant’s customer holds', async () => {
    const other = await signUp(server.url, { business_name: 'Duka Jingine' });
    const theirs = await client(server.url, other.keys.secretTest).post('/v1/customers', { name: 'Baraka' });
    expect(theirs.status).toBe(201);
    const taken = customerCommand({ customer: theirs.body.id });
    const next = customerCommand();
    const results = await push(taken, next);
    expect(results[0]).toMatchObject({
      status: 'refused',
      error: { code: 'parameter_invalid', details: { customer: 'is taken' } },
    });
    expect(applied(results[1])).toMatchObject({ customer: next.payload.customer });
    expect((await api.get(`/v1/customers/${theirs.body.id}`)).status).toBe(404);
  });
});
