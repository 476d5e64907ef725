import { decodeTime } from 'ulid';
import { describe, expect, it } from 'vitest';
import { COMMAND_ID_PATTERN, hasPrefix, idPattern, idSource, newId } from './ids.ts';

describe('ids', () => {
  it('makes prefixed lowercase ULIDs, and a till command id in capitals', () => {
    const ids = idSource();
    expect(newId('shift')).toMatch(idPattern('shift'));
    expect(ids.newId('customer', Date.UTC(2026, 10, 25))).toMatch(idPattern('customer'));
    expect(ids.commandId()).toMatch(COMMAND_ID_PATTERN);
    expect(hasPrefix('payment', newId('payment'))).toBe(true);
    expect(idPattern('customer').test(newId('shift'))).toBe(false);
  });

  it('orders ids by the time they are made at, and in making order within a millisecond', () => {
    const ids = idSource();
    const at = Date.UTC(2026, 10, 25, 11, 3);
    const made = [ids.ulid(at), ids.commandId(at).slice(4), ids.ulid(at), ids.ulid(at + 1)];
    expect([...made].sort()).toEqual(made);
    expect(decodeTime(made[0]!)).toBe(at);
  });
});
