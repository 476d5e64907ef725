import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../apps/server/src/server.ts';
import { client, signUp, startTestServer } from '../support/server.ts';
import type { Api } from '../support/retail.ts';
import { book, makeRoomType } from './support.ts';

/**
 * Many front desks and booking sites at the last room at once. On PostgreSQL
 * two servers share the database, as two processes do; the embedded database
 * belongs to one process, so there every attempt goes through one server.
 */
const servers: RunningServer[] = [];
let desks: Api[];

beforeAll(async () => {
  servers.push(await startTestServer());
  if (process.env.TEST_DATABASE_URL) servers.push(await startTestServer());
  const merchant = await signUp(servers[0]!.url, { business_name: 'Last Room Lodge' });
  desks = servers.map((server) => client(server.url, merchant.keys.secretTest));
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

const ATTEMPTS = 1_000;

/** `count` bookings at once, spread over the servers, at most `parallel` in flight. */
async function attempt(count: number, parallel: number, fields: (index: number) => Record<string, unknown>) {
  const statuses: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      const answer = await book(desks[index % desks.length]!, fields(index));
      statuses.push(answer.status);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return statuses;
}

describe('the last room, wanted by many at once', () => {
  it(`makes exactly one reservation of ${ATTEMPTS} concurrent attempts, the rest refused with 409`, async () => {
    const { roomType } = await makeRoomType(desks[0]!, { name: 'Last', rooms: 1, first: 1 });
    // Overlapping stays of different lengths, all on the night of the 10th.
    const statuses = await attempt(ATTEMPTS, 32, (index) => ({
      room_type: roomType.id,
      arrival: `2029-03-${String(10 - (index % 3)).padStart(2, '0')}`,
      departure: `2029-03-${String(11 + (index % 2)).padStart(2, '0')}`,
    }));
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    // The rest are refused: the room is taken (409), or, on a machine too busy to answer one in
    // time, the server's 503 asks to try again later. Never a second reservation, never another answer.
    expect(statuses.filter((status) => status !== 201 && status !== 409 && status !== 503)).toEqual([]);
    expect(statuses.filter((status) => status === 409).length).toBeGreaterThan(ATTEMPTS * 0.9);
    const held = await servers[0]!.database.pool.query(
      `SELECT count(*) AS n FROM hospitality_reservations WHERE room_type_id = $1 AND status = 'confirmed'`,
      [roomType.id],
    );
    expect(Number(held.rows[0].n)).toBe(1);
  }, 120_000);

  it('gives a named room to one of many, and the type’s other room to one more', async () => {
    const { roomType, rooms } = await makeRoomType(desks[0]!, { name: 'Pair', rooms: 2, first: 11 });
    const statuses = await attempt(200, 32, (index) => ({
      room_type: roomType.id,
      ...(index % 2 === 0 ? { room: rooms[0] } : {}),
      arrival: '2029-04-01',
      departure: '2029-04-03',
    }));
    expect(statuses.filter((status) => status === 201)).toHaveLength(2);
    const stays = await servers[0]!.database.pool.query(
      `SELECT room_id FROM hospitality_reservations WHERE room_type_id = $1 AND status = 'confirmed'`,
      [roomType.id],
    );
    expect(stays.rows).toHaveLength(2);
    // At most one of them named the room; whichever did holds it alone.
    expect(stays.rows.filter((row) => row.room_id === rooms[0]).length).toBeLessThanOrEqual(1);
  });
});
