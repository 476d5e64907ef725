import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LONGEST_SHIFT_SECONDS,
  overtimeOf,
  shiftsFromPunches,
  type Punch,
  type PunchKind,
} from './attendance.ts';

const DAY = Date.UTC(2026, 10, 27, 5, 0) / 1000; // 08:00 in Dar es Salaam
let ids = 0;
const punch = (kind: PunchKind, minutesIn: number, till = 'till_a'): Punch => ({
  id: `punch_${String(++ids).padStart(4, '0')}`,
  kind,
  at: DAY + minutesIn * 60,
  till,
});

describe('attendance from punches', () => {
  it('makes a shift of a clock-in and out, a break taken out', () => {
    const { shifts, stray } = shiftsFromPunches(
      [punch('in', 0), punch('break_start', 240), punch('break_end', 285), punch('out', 600)],
      DAY + 86_400,
    );
    expect(stray).toEqual([]);
    expect(shifts).toHaveLength(1);
    expect(shifts[0]).toMatchObject({ worked_minutes: 555, break_minutes: 45, missed_clock_out: false });
    expect(overtimeOf(555)).toEqual({ ordinary_minutes: 540, overtime_minutes: 15 });
  });

  it('counts a person clocked in at two tills offline once, the later clock-in kept as a duplicate', () => {
    const first = punch('in', 0, 'till_a');
    const second = punch('in', 2, 'till_b');
    const { shifts } = shiftsFromPunches([second, punch('out', 480, 'till_b'), first], DAY + 86_400);
    expect(shifts).toHaveLength(1);
    expect(shifts[0]!.clock_in).toEqual(first);
    expect(shifts[0]!.duplicates).toEqual([second]);
    expect(shifts[0]!.worked_minutes).toBe(480);
  });

  it('flags a missed clock-out and invents no hours; an open shift of today is open, not missed', () => {
    const morning = punch('in', 0);
    expect(shiftsFromPunches([morning], DAY + 3_600).shifts[0]).toMatchObject({
      clock_out: null,
      worked_minutes: null,
      missed_clock_out: false,
    });
    expect(shiftsFromPunches([morning], DAY + LONGEST_SHIFT_SECONDS + 1).shifts[0]).toMatchObject({
      worked_minutes: null,
      missed_clock_out: true,
    });
    // The next day's clock-in starts a new shift; yesterday's is the one that missed its clock-out.
    const next = shiftsFromPunches(
      [morning, punch('in', 24 * 60), punch('out', 24 * 60 + 480)],
      DAY + 2 * 86_400,
    );
    expect(next.shifts.map((s) => [s.missed_clock_out, s.worked_minutes])).toEqual([
      [true, null],
      [false, 480],
    ]);
  });

  it('names punches that fit no shift', () => {
    const out = punch('out', 10);
    const lonelyBreak = punch('break_end', 20);
    const { shifts, stray } = shiftsFromPunches([out, lonelyBreak], DAY + 86_400);
    expect(shifts).toEqual([]);
    expect(stray).toEqual([
      { punch: out, problem: 'out_without_in' },
      { punch: lonelyBreak, problem: 'break_outside_shift' },
    ]);
  });

  it('never counts a minute twice, whatever order and tills the punches come in: shifts do not overlap, worked time stays inside each', () => {
    const kinds = fc.constantFrom<PunchKind>('in', 'out', 'break_start', 'break_end');
    fc.assert(
      fc.property(
        fc.array(fc.record({ kind: kinds, minute: fc.integer({ min: 0, max: 3 * 24 * 60 }) }), {
          maxLength: 30,
        }),
        (drawn) => {
          const punches = drawn.map(({ kind, minute }, index) => ({
            id: `punch_${String(index).padStart(4, '0')}`,
            kind,
            at: DAY + minute * 60,
            till: index % 2 ? 'till_a' : 'till_b',
          }));
          const { shifts, stray } = shiftsFromPunches(punches, DAY + 4 * 86_400);
          // Every punch is used once: a shift's in or out, a duplicate, a break's end or start, or stray.
          const used = shifts.flatMap((s) => [
            s.clock_in,
            ...(s.clock_out ? [s.clock_out] : []),
            ...s.duplicates,
          ]);
          expect(used.length + stray.length).toBeLessThanOrEqual(punches.length);
          // Shifts do not overlap, and worked time never exceeds the shift's span.
          for (const [index, shift] of shifts.entries()) {
            const endAt = shift.clock_out?.at ?? shift.clock_in.at;
            if (shift.worked_minutes !== null) {
              expect(shift.worked_minutes).toBeLessThanOrEqual(Math.floor((endAt - shift.clock_in.at) / 60));
              expect(shift.worked_minutes).toBeGreaterThanOrEqual(0);
            }
            const next = shifts[index + 1];
            if (next) expect(next.clock_in.at).toBeGreaterThanOrEqual(endAt);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
