/**
 * Attendance from clock punches made at tills, offline too: the punches of one employee, from
 * every till, read in time order into shifts of work. Nothing is invented: a clock-in with no
 * clock-out is a shift flagged `missed_clock_out` with no hours, never one ended at a guessed
 * time. Two tills that clocked the same person in while offline give one shift, the later
 * clock-in kept as a duplicate, not a second shift counted twice.
 */

export const PUNCH_KINDS = ['in', 'out', 'break_start', 'break_end'] as const;
export type PunchKind = (typeof PUNCH_KINDS)[number];

export interface Punch {
  id: string;
  kind: PunchKind;
  /** Unix seconds, the till's clock when the PIN was entered. */
  at: number;
  till: string;
}

export type PunchProblem = 'duplicate_in' | 'out_without_in' | 'break_outside_shift' | 'break_not_ended';

export interface WorkShift {
  clock_in: Punch;
  /** Null: the shift is open (today) or its clock-out was missed. */
  clock_out: Punch | null;
  /** Minutes worked, breaks taken out; null when the clock-out is missing. */
  worked_minutes: number | null;
  break_minutes: number;
  /** Clock-ins from other tills (or again) while this shift was open. */
  duplicates: Punch[];
  missed_clock_out: boolean;
}

export interface Attendance {
  shifts: WorkShift[];
  /** Punches that fit no shift, each with why. */
  stray: Array<{ punch: Punch; problem: PunchProblem }>;
}

/** The longest a shift may run before an unanswered clock-in counts as a missed clock-out. */
export const LONGEST_SHIFT_SECONDS = 16 * 3600;

const minutes = (seconds: number) => Math.floor(seconds / 60);

/**
 * One employee's punches as shifts. `now` (unix seconds) decides whether a shift with no
 * clock-out is still open or its clock-out was missed (after `LONGEST_SHIFT_SECONDS`).
 */
export function shiftsFromPunches(punches: readonly Punch[], now: number): Attendance {
  const ordered = [...punches].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1));
  const shifts: WorkShift[] = [];
  const stray: Attendance['stray'] = [];
  let shift: WorkShift | null = null;
  let breakFrom: Punch | null = null;

  /** Ends the open shift at `out`, or with its clock-out missed when `out` is null. */
  const end = (open: WorkShift, out: Punch | null) => {
    if (breakFrom) stray.push({ punch: breakFrom, problem: 'break_not_ended' });
    open.clock_out = out;
    open.missed_clock_out = out === null;
    open.worked_minutes = out ? minutes(out.at - open.clock_in.at) - open.break_minutes : null;
    breakFrom = null;
  };

  for (const punch of ordered) {
    // A punch long after an unanswered clock-in: that shift missed its clock-out.
    if (shift && punch.at - shift.clock_in.at > LONGEST_SHIFT_SECONDS) {
      end(shift, null);
      shift = null;
    }
    if (punch.kind === 'in') {
      if (shift) shift.duplicates.push(punch);
      else {
        shift = {
          clock_in: punch,
          clock_out: null,
          worked_minutes: null,
          break_minutes: 0,
          duplicates: [],
          missed_clock_out: false,
        };
        shifts.push(shift);
      }
    } else if (punch.kind === 'out') {
      if (shift) {
        end(shift, punch);
        shift = null;
      } else stray.push({ punch, problem: 'out_without_in' });
    } else if (punch.kind === 'break_start') {
      if (shift && !breakFrom) breakFrom = punch;
      else stray.push({ punch, problem: 'break_outside_shift' });
    } else if (shift && breakFrom) {
      shift.break_minutes += minutes(punch.at - breakFrom.at);
      breakFrom = null;
    } else stray.push({ punch, problem: 'break_outside_shift' });
  }
  // Still open: open today, or its clock-out missed once the longest shift has passed.
  if (shift && now - shift.clock_in.at > LONGEST_SHIFT_SECONDS) end(shift, null);
  return { shifts, stray };
}

/** Ordinary hours in a day under the Employment and Labour Relations Act; beyond them is overtime. */
export const ORDINARY_DAY_MINUTES = 9 * 60;

/** A day's worked minutes split into ordinary and overtime. */
export function overtimeOf(
  workedMinutes: number,
  ordinary = ORDINARY_DAY_MINUTES,
): {
  ordinary_minutes: number;
  overtime_minutes: number;
} {
  return {
    ordinary_minutes: Math.min(workedMinutes, ordinary),
    overtime_minutes: Math.max(0, workedMinutes - ordinary),
  };
}
