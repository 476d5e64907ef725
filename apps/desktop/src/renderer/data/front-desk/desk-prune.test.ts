/**
 * Dropping the stays that left the desk's window, on the till's own database
 * (RxDB, memory storage): stays holding no room that ended more than a week
 * ago go, unless a command of this till still waits on or was refused over
 * them; stays holding a room, recent ones, and the desk's other records stay.
 */
import { getRxStorageMemory } from 'rxdb/plugins/storage-memory';
import { afterEach, describe, expect, it } from 'vitest';
import { DESK_STAY_WINDOW_DAYS, type PullDocument } from '@tz/core';
import { openDatabase, type TillDatabase } from '../store/database.ts';
import { toLocal } from '../store/schema.ts';
import { makeCommand } from '../../../../test/till-data.ts';
import { TODAY, room, stay } from './desk-fixtures.ts';
import { pruneStays } from './desk-prune.ts';

let db: TillDatabase | null = null;
afterEach(async () => {
  await db?.close();
  db = null;
});

const NOW = Date.parse(`${TODAY}T12:00:00+03:00`);
const DAY = 86_400;
/** A stay that ended `daysAgo` days before now (to the second), in `status`. */
const ended = (id: string, status: PullDocument<'reservations'>['status'], daysAgo: number) => ({
  ...stay(id, { arrival: '2026-10-01', departure: '2026-10-02' }),
  status,
  ends_at: NOW / 1000 - daysAgo * DAY,
});

describe('pruning the desk’s stays', () => {
  it('drops stays that left the window, never one a command of this till still names', async () => {
    db = await openDatabase({
      name: `prune${Date.now()}`,
      storage: getRxStorageMemory(),
      multiInstance: false,
    });
    const window = DESK_STAY_WINDOW_DAYS;
    const stays = [
      ended('resv_old_out', 'checked_out', window + 3),
      ended('resv_old_cancel', 'canceled', window + 30),
      ended('resv_old_noshow', 'no_show', window + 1),
      // Just inside the window still: the feed may yet send it.
      ended('resv_recent_out', 'checked_out', window - 1),
      // Holding a room, however long ago it was due to end: never dropped.
      ended('resv_overstay', 'checked_in', window + 5),
      ended('resv_unconfirmed', 'pending', window + 5),
      // Old, but the desk's commands name them.
      ended('resv_waiting', 'checked_out', window + 2),
      ended('resv_refused', 'checked_out', window + 2),
      ended('resv_synced', 'checked_out', window + 2),
    ];
    await db.records.bulkInsert([
      ...stays.map((doc) => toLocal('reservations', doc)),
      toLocal('rooms', room('101')),
    ]);
    const naming = (id: string, reservation: string, status: 'pending' | 'refused' | 'applied') =>
      makeCommand({
        id,
        type: 'folio.payment',
        payload: { reservation, method: 'cash', amount: 1_000, at: NOW / 1000 },
        status,
        client_order_id: '',
      });
    await db.commands.bulkInsert([
      naming('cmd_1', 'resv_waiting', 'pending'),
      naming('cmd_2', 'resv_refused', 'refused'),
      naming('cmd_3', 'resv_synced', 'applied'),
    ]);

    expect(await pruneStays(db, NOW)).toBe(4);
    const left = await db.records.find().exec();
    expect(left.map((doc) => doc.primary).sort()).toEqual(
      [
        'resv_recent_out',
        'resv_overstay',
        'resv_unconfirmed',
        'resv_waiting',
        'resv_refused',
        'room_101',
      ].sort(),
    );
    // Once its command has synced, the stay goes at the next prune; nothing else does.
    await db.commands.findOne('cmd_1').incrementalPatch({ status: 'applied' });
    expect(await pruneStays(db, NOW)).toBe(1);
    expect(await db.records.findOne('resv_waiting').exec()).toBeNull();
    expect(await pruneStays(db, NOW)).toBe(0);
  });
});
