import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { movableClock } from '../../apps/server/src/infra/clock.ts';
import { eventually } from '../support/server.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, sell, type Api } from '../support/retail.ts';
import { arrivingGuest, book, makeRoomType } from './support.ts';

const clock = movableClock(new Date('2027-12-01T06:00:00Z'));
let server: RunningServer;
let api: Api;

beforeAll(async () => {
  ({ server, api } = await withMerchant({
    business_name: 'Stone Town Inn',
    clock,
    env: { NIGHT_AUDIT: 'false' },
  }));
});
afterAll(() => server?.close());

const at = (iso: string) => clock.set(new Date(iso));
const audit = () => server.services.nightAudit.runDue();
const folioOf = async (id: string) => {
  const found = await api.get(`/v1/hospitality/reservations/${id}/folio`);
  expect(found.status, JSON.stringify(found.body)).toBe(200);
  return found.body;
};
const events = async (type: string, reservation: string) =>
  (
    await server.database.pool.query(
      `SELECT data->'object' AS object FROM events WHERE type = $1 AND data->'object'->>'reservation' = $2`,
      [type, reservation],
    )
  ).rows.map((row) => row.object);

/** A checked-in stay from `arrival` to `departure` in a fresh room type. */
async function checkedIn(
  name: string,
  arrival: string,
  departure: string,
  fields: Record<string, unknown> = {},
) {
  const { roomType, rooms } = await makeRoomType(api, { name, rooms: 1, first: 1, ...fields });
  const stay = await book(api, { room_type: roomType.id, room: rooms[0], arrival, departure });
  expect(stay.status, JSON.stringify(stay.body)).toBe(201);
  const checked = await api.post(`/v1/hospitality/reservations/${stay.body.id}/check_in`, arrivingGuest());
  expect(checked.body.status).toBe('checked_in');
  return stay.body as { id: string; total: number; quote: { vat: { amount: number } } };
}

describe('the night audit on a folio', () => {
  it('posts each night once as it comes, over a month and a year end, adding up to the quote', async () => {
    at('2027-12-30T08:00:00+03:00');
    const stay = await checkedIn('Year end', '2027-12-30', '2028-01-02');
    await audit();
    expect((await folioOf(stay.id)).lines).toHaveLength(0); // the first night begins at 14:00
    at('2027-12-30T14:00:00+03:00');
    await audit();
    await audit();
    let folio = await folioOf(stay.id);
    expect(folio.lines.map((line: { kind: string; night: string }) => [line.kind, line.night])).toEqual([
      ['room', '2027-12-30'],
      ['tourism_levy', '2027-12-30'],
      ['vat', '2027-12-30'],
    ]);
    at('2028-01-02T09:00:00+03:00');
    await audit();
    await audit();
    folio = await folioOf(stay.id);
    const nights = folio.lines.filter((line: { kind: string }) => line.kind === 'room');
    expect(nights.map((line: { night: string }) => line.night)).toEqual([
      '2027-12-30',
      '2027-12-31',
      '2028-01-01',
    ]);
    expect(folio.charges).toBe(stay.total);
    expect(folio.balance).toBe(stay.total);
    const vat = folio.lines.filter((line: { kind: string }) => line.kind === 'vat');
    expect(vat.reduce((sum: number, line: { amount: number }) => sum + line.amount, 0)).toBe(
      stay.quote.vat.amount,
    );
    const audits = await api.get('/v1/hospitality/night-audits');
    expect(audits.body.data[0]).toMatchObject({
      object: 'night_audit',
      ran_at: Math.floor(clock.now().getTime() / 1000),
    });
    expect(nights[2].night_audit).toBe(audits.body.data[0].id);
  });

  it('posts the nights due at check-out itself, so a guest leaving before the audit runs owes them', async () => {
    at('2028-02-27T15:00:00+03:00');
    const stay = await checkedIn('Leap', '2028-02-27', '2028-03-01');
    at('2028-03-01T08:00:00+03:00');
    const refused = await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('folio_unsettled');
    expect(refused.body.details.balance).toBe(String(stay.total));
    expect(refused.body.message).toContain(String(stay.total));
    // Refused, so rolled back: the nights are posted again (once) by the audit.
    await audit();
    const folio = await folioOf(stay.id);
    expect(
      folio.lines
        .filter((line: { kind: string }) => line.kind === 'room')
        .map((l: { night: string }) => l.night),
    ).toEqual(['2028-02-27', '2028-02-28', '2028-02-29']);
    expect(folio.balance).toBe(stay.total);
  });
});

describe('paying and leaving', () => {
  it('takes cash in shillings and in dollars at a rate, then checks out at zero and closes the folio', async () => {
    at('2028-04-10T15:00:00+03:00');
    const stay = await checkedIn('Cash', '2028-04-10', '2028-04-11', { base_rate: 250_000 });
    const extra = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/charges`, {
      description: 'Laundry',
      amount: 12_000,
    });
    expect(extra.status, JSON.stringify(extra.body)).toBe(200);
    at('2028-04-11T08:00:00+03:00');
    await audit();
    const owed = (await folioOf(stay.id)).balance;
    expect(owed).toBe(stay.total + 12_000);
    const dollars = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
      method: 'cash',
      foreign: { currency: 'USD', amount: 10_000, rate: 2_650 },
    });
    expect(dollars.status, JSON.stringify(dollars.body)).toBe(200);
    const line = dollars.body.lines.at(-1);
    expect(line).toMatchObject({
      kind: 'cash',
      amount: -265_000,
      foreign: { currency: 'USD', amount: 10_000, rate: 2_650 },
    });
    const wrong = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
      method: 'cash',
      amount: 1,
      foreign: { currency: 'USD', amount: 100, rate: 2_650 },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('amount_invalid');
    const rest = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
      method: 'cash',
      amount: owed - 265_000,
    });
    expect(rest.body.balance).toBe(0);
    const out = await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, {});
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const folio = await folioOf(stay.id);
    expect(folio).toMatchObject({ status: 'closed', balance: 0, closing_balance: 0, override: null });
    const [closed] = await events('folio.closed', stay.id);
    expect(closed).toMatchObject({ object: 'folio', status: 'closed', balance: 0 });
    const late = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/charges`, {
      description: 'Minibar',
      amount: 5_000,
    });
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('state_transition_invalid');
  });

  it('lets a guest leave owing only by a manager’s override, kept with who gave it', async () => {
    at('2028-05-01T15:00:00+03:00');
    const stay = await checkedIn('Override', '2028-05-01', '2028-05-02');
    const deposit = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
      method: 'deposit',
      amount: 50_000,
      description: 'Paid at booking',
    });
    expect(deposit.body.balance).toBe(-50_000);
    at('2028-05-02T09:00:00+03:00');
    const refused = await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, {});
    expect(refused.body.details.balance).toBe(String(stay.total - 50_000));
    const empty = await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, {
      override: { reason: ' ' },
    });
    expect(empty.status).toBe(400);
    const out = await api.post(`/v1/hospitality/reservations/${stay.id}/check_out`, {
      override: { reason: 'Company pays by invoice' },
    });
    expect(out.body.status).toBe('checked_out');
    const folio = await folioOf(stay.id);
    expect(folio.closing_balance).toBe(stay.total - 50_000);
    expect(folio.override.reason).toBe('Company pays by invoice');
    expect(folio.override.by).toMatch(/^api_key:key_/);
  });

  it('refuses a negative extra and an empty description, but takes an adjustment either way', async () => {
    at('2028-06-01T15:00:00+03:00');
    const stay = await checkedIn('Adjust', '2028-06-01', '2028-06-02');
    const path = `/v1/hospitality/reservations/${stay.id}/folio/charges`;
    expect((await api.post(path, { description: 'Refund', amount: -1_000 })).status).toBe(400);
    expect((await api.post(path, { description: '', amount: 1_000 })).status).toBe(400);
    expect((await api.post(path, { description: 'x', amount: 0, kind: 'adjustment' })).status).toBe(400);
    const credit = await api.post(path, { kind: 'adjustment', description: 'Noisy room', amount: -10_000 });
    expect(credit.body.balance).toBe(-10_000);
    expect((await api.get('/v1/hospitality/reservations/resv_missing/folio')).status).toBe(404);
  });
});

describe('mobile money at the desk', () => {
  it('asks the payer through /v1/payments and posts the folio’s line when the payment succeeds', async () => {
    at('2028-07-01T15:00:00+03:00');
    const stay = await checkedIn('Mobile', '2028-07-01', '2028-07-02', { base_rate: 40_000 });
    const failed = await api.post(`/v1/hospitality/reservations/${stay.id}/folio/payments`, {
      method: 'mobile_money',
      amount: 10_000,
      phone: '255700000002',
    });
    expect(failed.status, JSON.stringify(failed.body)).toBe(200);
    const asked = await api.post(
      `/v1/hospitality/reservations/${stay.id}/folio/payments`,
      { method: 'mobile_money', amount: stay.total, phone: '0700000001' },
      { 'Idempotency-Key': `folio-${stay.id}` },
    );
    expect(asked.status).toBe(200);
    const payment = asked.body.pending_payments.find((p: { amount: number }) => p.amount === stay.total);
    expect(payment).toMatchObject({
      status: 'pending',
      phone: '255700000001',
      metadata: { reservation: stay.id },
    });
    const replay = await api.post(
      `/v1/hospitality/reservations/${stay.id}/folio/payments`,
      { method: 'mobile_money', amount: stay.total, phone: '0700000001' },
      { 'Idempotency-Key': `folio-${stay.id}` },
    );
    expect(replay.body).toEqual(asked.body);
    const paid = await eventually(async () => {
      const folio = await folioOf(stay.id);
      return folio.pending_payments.length === 0 && folio;
    });
    expect(paid.lines).toEqual([
      expect.objectContaining({ kind: 'mobile_money', amount: -stay.total, payment: payment.id }),
    ]);
    expect((await api.get(`/v1/payments/${payment.id}`)).body.status).toBe('paid');
    const ledger = await server.database.pool.query(
      `SELECT count(*)::int AS n FROM ledger_transactions WHERE source_id = $1`,
      [payment.id],
    );
    expect(ledger.rows[0].n).toBe(1);
  });
});

describe('charge to room from the till', () => {
  it('puts a sale tendered to a checked-in stay on its folio, in the sale’s transaction', async () => {
    at('2028-08-01T15:00:00+03:00');
    const stay = await checkedIn('Bar', '2028-08-01', '2028-08-03');
    const product = await makeProduct(api, { name: 'Kilimanjaro Lager', price: 4_500 });
    const sale = await sell(api, {
      lines: [{ product: product.id, quantity: 2 }],
      tenders: [
        { method: 'room', reservation: stay.id, amount: 6_000 },
        { method: 'cash', amount: 5_000 },
      ],
    });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.tenders[0]).toMatchObject({ method: 'room', paid: 6_000, reservation: stay.id });
    expect(sale.body.change_due).toBe(2_000);
    expect(sale.body.receipt.tenders[0]).toMatchObject({
      label: 'Kwenye bili ya chumba',
      amount: 6_000,
      reference: 'Bar-1',
    });
    const folio = await folioOf(stay.id);
    expect(folio.lines).toEqual([
      expect.objectContaining({
        kind: 'extra',
        amount: 6_000,
        order: sale.body.id,
        description: `Receipt ${sale.body.receipt_number}`,
      }),
    ]);
    // Corrected on the folio, not by refunding the sale.
    const refund = await api.post(`/v1/orders/${sale.body.id}/refund`, {});
    expect(refund.status).toBe(400);
    expect(refund.body.message).toContain(stay.id);
  });

  it('refuses a room charge for a stay not checked in, and one more than is due', async () => {
    at('2028-09-01T10:00:00+03:00');
    const { roomType } = await makeRoomType(api, { name: 'Later', rooms: 1, first: 1 });
    const booked = await book(api, {
      room_type: roomType.id,
      arrival: '2028-09-10',
      departure: '2028-09-11',
    });
    const product = await makeProduct(api, { price: 3_000 });
    const refused = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'room', reservation: booked.body.id, amount: 3_000 }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.details['tenders.0.reservation']).toContain('confirmed');
    const stranger = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'room', reservation: 'resv_nope', amount: 3_000 }],
    });
    expect(stranger.status).toBe(400);
    const stay = await checkedIn('Over', '2028-09-01', '2028-09-02');
    const over = await sell(api, {
      lines: [{ product: product.id, quantity: 1 }],
      tenders: [{ method: 'room', reservation: stay.id, amount: 3_001 }],
    });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('tender_exceeds_due');
    expect((await folioOf(stay.id)).lines).toEqual([]);
  });
});
