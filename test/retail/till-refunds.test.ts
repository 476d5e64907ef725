import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderCommand, refundOrderCommand, voidOrderCommand } from '@tz/core';
import type { RunningServer } from '../../apps/server/src/server.ts';
import type { TillActor } from '../../apps/server/src/actor.ts';
import { withMerchant } from '../support/merchant.ts';
import { makeProduct, type Api } from '../support/retail.ts';
import { inTransaction, pairedTill, refusal } from '../support/tills.ts';

let server: RunningServer;
let api: Api;
let actor: TillActor;
let product: { id: string };

beforeAll(async () => {
  ({ server, api } = await withMerchant());
  ({ actor } = await pairedTill(server, api));
  product = await makeProduct(api, { price: 1_000, track_stock: false });
});
afterAll(() => server?.close());

const EAT_OFFSET = 3 * 3600;
/** Unix seconds of the last midnight in East Africa Time. */
const eatMidnight = () => Math.floor((Date.now() / 1000 + EAT_OFFSET) / 86_400) * 86_400 - EAT_OFFSET;

/** A till's offline sale of two pieces, with its own client order id. */
async function tillSale(soldAt?: number) {
  const clientOrderId = `till-${crypto.randomUUID()}`;
  const body = {
    client_order_id: clientOrderId,
    ...(soldAt === undefined ? {} : { sold_at: soldAt }),
    lines: [{ product: product.id, quantity: 2 }],
    tenders: [{ method: 'cash', amount: 2_000 }],
  };
  const { order } = await inTransaction(server, (tx) =>
    server.services.orders.create(tx, actor, createOrderCommand.parse(body)),
  );
  return { order, clientOrderId };
}

describe('a till refunds and voids by its own order id', () => {
  it('refunds an order found by client_order_id, dated when the till refunded it', async () => {
    const { order, clientOrderId } = await tillSale();
    const refundedAt = Math.floor(Date.now() / 1000) - 600;
    const refunded = await inTransaction(server, async (tx) => {
      const id = await server.services.orders.findId(tx, actor, { client_order_id: clientOrderId });
      return server.services.orders.refund(
        tx,
        actor,
        id,
        refundOrderCommand.parse({ lines: [{ line: 0, quantity: 1 }], refunded_at: refundedAt }),
      );
    });
    expect(refunded.id).toBe(order.id);
    expect(refunded.status).toBe('partially_refunded');
    expect(refunded.refunded_amount).toBe(1_000);
    expect(refunded.refunds).toHaveLength(1);
    expect(refunded.refunds[0]!.created).toBe(refundedAt);
  });

  it('finds an order by its id as well, and answers resource_missing for an unknown client_order_id', async () => {
    const { order } = await tillSale();
    expect(await server.services.orders.findId(server.database.pool, actor, { order: order.id })).toBe(
      order.id,
    );
    const error = await refusal(
      server.services.orders.findId(server.database.pool, actor, { client_order_id: 'till-never-sent' }),
    );
    expect(error.code).toBe('resource_missing');
    expect(error.kind.status).toBe(404);
  });

  it('refuses a refund dated beyond the clock leeway in the future', async () => {
    const { clientOrderId } = await tillSale();
    const error = await refusal(
      inTransaction(server, async (tx) => {
        const id = await server.services.orders.findId(tx, actor, { client_order_id: clientOrderId });
        return server.services.orders.refund(
          tx,
          actor,
          id,
          refundOrderCommand.parse({ refunded_at: Math.floor(Date.now() / 1000) + 3_600 }),
        );
      }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.details).toHaveProperty('refunded_at');
  });

  it('accepts after midnight (East Africa Time) a void the till made before it, on the day of sale', async () => {
    const midnight = eatMidnight();
    const { clientOrderId } = await tillSale(midnight - 4 * 3600);
    const afterMidnight = new Date((midnight + 600) * 1000);
    const voided = await inTransaction(server, async (tx) => {
      const id = await server.services.orders.findId(tx, actor, { client_order_id: clientOrderId });
      return server.services.orders.void(
        tx,
        actor,
        id,
        voidOrderCommand.parse({ voided_at: midnight - 600 }),
        afterMidnight,
      );
    });
    expect(voided.status).toBe('voided');
    expect(voided.voided_at).toBe(midnight - 600);
  });

  it('refuses the same void when the till made it after midnight: the day of sale is over', async () => {
    const midnight = eatMidnight();
    const { clientOrderId } = await tillSale(midnight - 4 * 3600);
    const error = await refusal(
      inTransaction(server, async (tx) => {
        const id = await server.services.orders.findId(tx, actor, { client_order_id: clientOrderId });
        return server.services.orders.void(
          tx,
          actor,
          id,
          voidOrderCommand.parse({ voided_at: midnight + 60 }),
          new Date((midnight + 600) * 1000),
        );
      }),
    );
    expect(error.code).toBe('state_transition_invalid');
  });

  it('refuses a void dated beyond the clock leeway in the future', async () => {
    const midnight = eatMidnight();
    const { clientOrderId } = await tillSale(midnight - 4 * 3600);
    const now = new Date((midnight - 3_600) * 1000);
    const error = await refusal(
      inTransaction(server, async (tx) => {
        const id = await server.services.orders.findId(tx, actor, { client_order_id: clientOrderId });
        return server.services.orders.void(
          tx,
          actor,
          id,
          voidOrderCommand.parse({ voided_at: midnight - 3_600 + 301 }),
          now,
        );
      }),
    );
    expect(error.code).toBe('parameter_invalid');
    expect(error.details).toHaveProperty('voided_at');
  });
});
