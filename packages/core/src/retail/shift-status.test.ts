import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.ts';
import { newId } from '../ids.ts';
import { assertTransition } from '../state-machine.ts';
import { SHIFT_STATES, SHIFT_STATUSES, SHIFT_TRANSITIONS, shiftIdSchema } from './shift-status.ts';

describe('shift transitions', () => {
  it('closes an open shift', () => {
    expect(() => assertTransition(SHIFT_STATES, 'open', 'closed')).not.toThrow();
  });

  it('refuses every other move', () => {
    for (const from of SHIFT_STATUSES)
      for (const to of SHIFT_STATUSES) {
        if (SHIFT_TRANSITIONS[from].includes(to)) continue;
        expect(() => assertTransition(SHIFT_STATES, from, to)).toThrow(AppError);
      }
  });
});

describe('shift ids', () => {
  it('accepts the ids newId makes and nothing else', () => {
    expect(shiftIdSchema.safeParse(newId('shift')).success).toBe(true);
    for (const bad of [
      'shift_1',
      'till_01jz0000000000000000000000',
      `shift_${'U'.repeat(26)}`,
      newId('order'),
    ])
      expect(shiftIdSchema.safeParse(bad).success, bad).toBe(false);
  });
});
