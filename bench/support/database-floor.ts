import http from 'node:http';
import Koa from 'koa';
import pg from 'pg';

/**
 * What the payments API cannot go below on this machine: a bare Koa handler
 * that sends exactly the statements the contract needs, pipelined, and nothing
 * else (no key, rate limit, validation, request log or webhooks).
 *   GET  /read   - the payment by id, scoped by merchant and mode
 *   POST /write  - idempotency claim, BEGIN, payment, event, idempotency response, COMMIT
 */
const merchant = process.env.MERCHANT_ID;
const paymentId = process.env.PAYMENT_ID!;
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 20,
  pipeline: true,
});
let sequence = 0;

async function write(): Promise<{ id: string }> {
  const n = ++sequence;
  const id = `pay_floor${process.pid}x${n}`;
  const key = `floor-${process.pid}-${n}`;
  const scope = [merchant, false, 'POST /v1/payments', key];
  const client = await pool.connect();
  const stream = (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } })
    .connection.stream;
  try {
    stream.cork();
    const sent = [
      client.query({
        name: 'claim',
        text: 'SELECT outcome FROM claim_idempotency_key($1, $2, $3, $4, $5, $6, $7)',
        values: [...scope, 'hash', 24, key],
      }),
      client.query('BEGIN'),
      client.query({
        name: 'payment',
        text: `INSERT INTO payments (id, merchant_id, livemode, amount, currency, status, phone, network, provider, created_at)
               VALUES ($1, $2, false, 1000, 'TZS', 'pending', '255700000003', 'vodacom', 'sandbox', now())`,
        values: [id, merchant],
      }),
      client.query({
        name: 'event',
        text: `INSERT INTO events (id, merchant_id, livemode, type, api_version, data)
               VALUES ($1, $2, false, 'payment.created', '1.1.0', $3)`,
        values: [`evt_floor${process.pid}x${n}`, merchant, JSON.stringify({ object: { id } })],
      }),
      client.query({
        name: 'complete',
        text: 'SELECT complete_idempotency_key($1, $2, $3, $4, $5, 201, $6)',
        values: [...scope, key, JSON.stringify({ id })],
      }),
      client.query('COMMIT'),
    ];
    stream.uncork();
    await Promise.all(sent);
    return { id };
  } finally {
    client.release();
  }
}

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    ctx.status = 201;
    ctx.body = await write();
  } else {
    const found = await pool.query({
      name: 'read',
      text: 'SELECT * FROM payments WHERE id = $1 AND merchant_id = $2 AND livemode = false',
      values: [paymentId, merchant],
    });
    ctx.body = found.rows[0];
  }
});
const handle = app.callback();
const server = http.createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
