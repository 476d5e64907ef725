/**
 * The desk's own steps over the pulled documents, as plain data: what is laid
 * over (waiting steps; applied ones only while the pull may not have them, and
 * only forward), what is not (refused steps), and the nights falling due.
 */
import { describe, expect, it } from 'vitest';
import type { PullDocument } from '@tz/core';
import { APPLIED_OVERLAY_MS, nightsDue, overlay, type DeskCommand, type DeskData } from './desk-state.ts';
import { deskView } from './desk-view.ts';
import { property } from './desk-fixtures.ts';

const NOW = Date.parse('2026-11-26T12:00:00+03:00');
const room = (number: string): PullDocument<'rooms'> => ({
  id: `room_${number}`,
  _deleted: false,
  room_type: 'rt_1',
  number,
  floor: null,
  housekeeping: 'clean',
});
const stay = (overrides: Partial<PullDocument<'reservations'>>): PullDocument<'reservations'> => ({
  id: 'resv_1',
  _deleted: false,
  room_type: 'rt_1',
  room: 'room_1',
  status: 'confirmed',
  mode: 'nightly',
  arrival: '2026-11-26',
  departure: '2026-11-28',
  starts_at: 0,
  ends_at: 0,
  adults: 1,
  children: 0,
  guest_name: 'Amina',
  guest_phone: null,
  source: 'front_desk',
  quote: null,
  total: 0,
  folio_balance: 0,
  folio_nights_posted: 0,
  registered_guests: 0,
  checked_in_at: null,
  checked_out_at: null,
  ...overrides,
});
const data = (reservations: Array<PullDocument<'reservations'>>): DeskData => ({
  property,
  roomTypes: [],
  rooms: [room('1'), room('2')],
  rates: [],
  reservations,
  conflicts: [],
});
const command = (
  id: string,
  type: DeskCommand['type'],
  payload: Record<string, unknown>,
  extra: Partial<DeskCommand> = {},
): DeskCommand => ({ id, type, status: 'pending', payload, error: null, synced_at: null, ...extra });

describe('the desk overlay', () => {
  it('lays a check-in over at once, an applied one only while recent, and a refused one never', () => {
    const checkIn = command('cmd_1', 'reservation.check_in', {
      reservation: 'resv_1',
      room: 'room_2',
      guests: [{}],
    });
    const pending = overlay(data([stay({})]), [checkIn], NOW).reservations[0]!;
    expect(pending).toMatchObject({ status: 'checked_in', room: 'room_2', registered_guests: 1 });
    const lately = { ...checkIn, status: 'applied' as const, synced_at: NOW - 1000 };
    expect(overlay(data([stay({})]), [lately], NOW).reservations[0]!.status).toBe('checked_in');
    const long = { ...lately, synced_at: NOW - APPLIED_OVERLAY_MS - 1 };
    expect(overlay(data([stay({})]), [long], NOW).reservations[0]!.status).toBe('confirmed');
    const refused = {
      ...checkIn,
      status: 'refused' as const,
      error: { code: 'room_unavailable', message: '' },
    };
    expect(overlay(data([stay({})]), [refused], NOW).reservations[0]!.status).toBe('confirmed');
  });

  it('never takes a stay backwards: an applied check-in over a stay checked out since', () => {
    const lately = command(
      'cmd_1',
      'reservation.check_in',
      { reservation: 'resv_1', guests: [] },
      {
        status: 'applied',
        synced_at: NOW - 1000,
      },
    );
    expect(overlay(data([stay({ status: 'checked_out' })]), [lately], NOW).reservations[0]!.status).toBe(
      'checked_out',
    );
  });

  it('sums the payments not yet applied per stay, and a check-out leaves the room dirty', () => {
    const steps = [
      command('cmd_1', 'folio.payment', { reservation: 'resv_1', method: 'deposit', amount: 20_000 }),
      command('cmd_2', 'folio.payment', { reservation: 'resv_1', method: 'cash', amount: 5_000 }),
      command(
        'cmd_3',
        'folio.payment',
        { reservation: 'resv_1', method: 'cash', amount: 7_000 },
        {
          status: 'applied',
          synced_at: NOW,
        },
      ),
      command('cmd_4', 'reservation.check_out', { reservation: 'resv_1' }),
    ];
    const laid = overlay(data([stay({ status: 'checked_in' })]), steps, NOW);
    expect(laid.unsyncedPayments.get('resv_1')).toBe(25_000);
    expect(laid.reservations[0]!.status).toBe('checked_out');
    expect(laid.rooms.find((one) => one.id === 'room_1')!.housekeeping).toBe('dirty');
    expect(laid.waiting.has('resv_1')).toBe(true);
  });

  it('lists a guest due on an earlier day who has not come, first among the arrivals, while the stay runs', () => {
    const late = stay({
      id: 'resv_late',
      guest_name: 'Zuberi',
      arrival: '2026-11-24',
      departure: '2026-11-28',
    });
    const today = stay({ id: 'resv_today', room: 'room_2', guest_name: 'Amina' });
    const gone = stay({ id: 'resv_gone', guest_name: 'Old', arrival: '2026-11-20', departure: '2026-11-26' });
    const noShow = stay({ id: 'resv_ns', guest_name: 'Never', arrival: '2026-11-25', status: 'no_show' });
    const view = deskView(data([today, late, gone, noShow]), [], new Set(), NOW)!;
    expect(view.arrivals.map((one) => [one.id, one.overdue])).toEqual([
      ['resv_late', true],
      ['resv_today', false],
    ]);
  });

  it('shows nothing without the property, and a refused step as a conflict until dismissed', () => {
    expect(deskView({ ...data([]), property: null }, [], new Set(), NOW)).toBeNull();
    const refused = command(
      'cmd_9',
      'reservation.move',
      { reservation: 'resv_1', room: 'room_2' },
      {
        status: 'refused',
        error: { code: 'room_unavailable', message: 'taken' },
      },
    );
    const view = deskView(data([stay({ status: 'checked_in' })]), [refused], new Set(), NOW)!;
    expect(view.conflicts).toEqual([
      {
        id: null,
        command: 'cmd_9',
        mine: true,
        tillName: null,
        holderName: null,
        type: 'reservation.move',
        code: 'room_unavailable',
        message: 'taken',
        reservation: 'resv_1',
        guestName: 'Amina',
        room: 'room_2',
        roomNumber: '2',
      },
    ]);
    expect(deskView(data([]), [refused], new Set(['cmd_9']), NOW)!.conflicts).toEqual([]);
  });

  it('counts a night due at the check-in time of its date, and every night once the departure has come', () => {
    const one = stay({ arrival: '2026-11-25', departure: '2026-11-28' });
    expect(nightsDue(one, property, Date.parse('2026-11-26T13:59:00+03:00'))).toBe(1);
    expect(nightsDue(one, property, Date.parse('2026-11-26T14:00:00+03:00'))).toBe(2);
    expect(nightsDue(one, property, Date.parse('2026-11-28T08:00:00+03:00'))).toBe(3);
  });
});
